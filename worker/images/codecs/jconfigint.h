/* jconfigint.h.  Generated from jconfigint.h.in by configure.  */
/* libjpeg-turbo build number */
#define BUILD "20170305"

/* How to obtain function inlining. */
#define INLINE inline __attribute__((always_inline))

/* Define to the full name of this package. */
#define PACKAGE_NAME "mozjpeg"

/* Version number of package */
#define VERSION "3.2"

/* The size of `size_t', as computed by sizeof. */
#define SIZEOF_SIZE_T 4
