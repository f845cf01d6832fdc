import type { Plugin } from 'vite';

// Issue 26 (React error #421, and the first screen's markup thrown away now and then on a phone): React 18
// hydrates the Worker's markup of the first screen (worker/document-render.ts) in two passes. The shell
// hydrates and commits first; every Suspense boundary in the markup (the router's around the screen, a
// screen's own) stays "dehydrated" and hydrates after it, at the lowest priority. Polaris' AppProvider,
// above all of them, changes two context values in effects right after that first commit:
// - MediaQueryProvider's `isNavigationCollapsed` starts false and is set from the window's media query
//   (true below 768 px: every phone);
// - PortalsManager's `container` (useIsAfterInitialMount) starts null and becomes the portal element.
// A context change reaches every dehydrated boundary under it. As an ordinary (default-priority) update,
// React tries to hydrate the boundary first at a raised priority, and when that render cannot complete in
// time it gives up: the boundary's markup is deleted and its content rendered afresh (#421, "This Suspense
// boundary received an update before it finished hydrating"): on /main at 390 px with a 4x slower CPU,
// 2 runs in 4 replaced the whole screen, heading included. As a transition, React never commits the
// update over a dehydrated boundary: it hydrates the boundary first and then applies the update (React's
// advice in the error text). So these two post-mount updates are transitions here. Only the built
// bundle is changed; the component tests run Polaris as is. Held by tests/browser/admin/server-render.test.ts.

type Patch = { file: RegExp; replacements: [from: string, to: string][] };

const PATCHES: Patch[] = [
  {
    file: /@shopify[\\/]polaris[\\/]build[\\/]esm[\\/]components[\\/]MediaQueryProvider[\\/]MediaQueryProvider\.js$/,
    replacements: [
      [
        "import React, { useState, useCallback, useEffect, useMemo } from 'react';",
        "import React, { useState, useCallback, useEffect, useMemo, startTransition } from 'react';",
      ],
      [
        'setIsNavigationCollapsed(navigationBarCollapsed().matches);',
        'startTransition(() => setIsNavigationCollapsed(navigationBarCollapsed().matches));',
      ],
    ],
  },
  {
    file: /@shopify[\\/]polaris[\\/]build[\\/]esm[\\/]utilities[\\/]use-is-after-initial-mount\.js$/,
    replacements: [
      ["import { useState, useEffect } from 'react';", "import { useState, useEffect, startTransition } from 'react';"],
      ['setIsAfterInitialMount(true);', 'startTransition(() => setIsAfterInitialMount(true));'],
    ],
  },
];

export function polarisHydration(): Plugin {
  return {
    name: 'polaris-hydration-transitions',
    enforce: 'pre',
    transform(code, id) {
      const patch = PATCHES.find((p) => p.file.test(id));
      if (!patch) return null;
      let out = code;
      for (const [from, to] of patch.replacements) {
        if (!out.includes(from)) this.error(`polaris-hydration: Polaris changed ${id}; review admin/build/polaris-hydration.ts`);
        out = out.replace(from, to);
      }
      return { code: out, map: null };
    },
  };
}
