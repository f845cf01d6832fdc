// Alt text and file names from the merchant's templates. Pure: the Worker's pipeline passes the item's
// catalogue fields in and gets the final strings out; the admin's live preview runs the same code on one
// real item of the shop (worker/optimise/templates.ts re-exports this module).
import {
  areaApplies,
  isBlankTemplate,
  renderTemplate,
  type AltTextSettings,
  type FileNameSettings,
  type ImageKind,
  type TemplateValues,
} from './image-settings';

/** Shopify's alt text limit for media (MediaImage.alt): longer values are refused by the mutation. */
export const ALT_TEXT_MAX = 512;
/** File name base length: Shopify allows 255 characters in total; a short slug leaves room for "-12.jpeg". */
export const FILE_NAME_BASE_MAX = 100;

/** Catalogue fields of the item (product, collection or article) an image belongs to. */
export type TemplateItem = {
  title: string;
  vendor?: string;
  productType?: string;
  price?: string;
  variant?: string;
  /** The blog's own title (articles only); %blog_title% uses the article title and falls back to it. */
  blogTitle?: string;
};

export type TemplateContext = { kind: ImageKind; item: TemplateItem; shopName: string };

/** The template placeholder values for one item. Placeholders of another kind render as empty. */
export function templateValues({ kind, item, shopName }: TemplateContext): TemplateValues {
  const shop = { shop_name: shopName };
  if (kind === 'product') {
    return {
      ...shop,
      product_title: item.title,
      product_vendor: item.vendor ?? '',
      product_type: item.productType ?? '',
      price: item.price ?? '',
      product_variant: item.variant ?? '',
    };
  }
  if (kind === 'collection') return { ...shop, collection_title: item.title };
  // Merchants think of a blog image as the post's image: the article title names it best.
  return { ...shop, blog_title: item.title || (item.blogTitle ?? '') };
}

function ruleOf(area: { product_rule: string; collection_rule: string; blogs_rule: string }, kind: ImageKind): string {
  return kind === 'product' ? area.product_rule : kind === 'collection' ? area.collection_rule : area.blogs_rule;
}

/** Cuts at a word boundary when one is near the limit, so alt text never ends mid-word. */
function truncateWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trim();
}

export function renderAltText(rule: string, ctx: TemplateContext): string {
  return truncateWords(renderTemplate(rule, templateValues(ctx)), ALT_TEXT_MAX);
}

/**
 * The alt text to write for one image, or null to leave the current one alone: the area is off or does
 * not cover this kind/publication, blank_replace is on and the image already has alt text, or the
 * template renders empty (an empty alt would be worse than the merchant's).
 */
export function decideAltText(
  settings: AltTextSettings,
  ctx: TemplateContext & { isPublished: boolean; currentAlt: string },
): string | null {
  if (!areaApplies(settings, ctx.kind, ctx.isPublished)) return null;
  if (settings.blank_replace === 1 && !isBlankTemplate(ctx.currentAlt)) return null;
  const rule = ruleOf(settings, ctx.kind);
  if (isBlankTemplate(rule)) return null;
  const alt = renderAltText(rule, ctx);
  return alt === '' || alt === ctx.currentAlt ? null : alt;
}

/**
 * A URL- and file-system-safe slug: accents folded to ASCII, other letters and digits of any script kept
 * (a Japanese title stays readable), everything else one hyphen, lower case, at most `max` characters.
 */
export function slugify(text: string, max = FILE_NAME_BASE_MAX): string {
  const folded = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const slug = folded.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
  return [...slug].slice(0, max).join('').replace(/-+$/, '');
}

/** The extension of a file name or URL path ('' when none), lower case, without the dot. */
export function extensionOf(name: string): string {
  const path = name.split(/[?#]/)[0] ?? '';
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** jpg and jpeg name one format; so do tif and tiff. */
function formatFamily(ext: string): string {
  return ext === 'jpeg' ? 'jpg' : ext === 'tif' ? 'tiff' : ext;
}

/**
 * `name` with the extension of the bytes it will name (`ext` is the format's usual extension: jpg, png,
 * webp, gif): a PNG converted to JPG is called "shirt.jpg", not "shirt.png". An extension of the same
 * format stays as the merchant wrote it ("photo.jpeg" stays).
 */
export function withFormatExtension(name: string, ext: string): string {
  const current = extensionOf(name);
  if (current !== '' && formatFamily(current) === formatFamily(ext)) return name;
  const base = current === '' ? name : name.slice(0, name.length - current.length - 1);
  return `${base}.${ext}`;
}

/** The file name (without extension) a template gives an item's first image: the slug of the rendered text. */
export function renderFileNameBase(rule: string, ctx: TemplateContext): string {
  return slugify(renderTemplate(rule, templateValues(ctx)));
}

/**
 * What a template gives one item, for the settings' live preview: the alt text, and the file name of the
 * item's first image with `ext` kept ('' when the template renders nothing, so the current one stays).
 */
export function previewTemplate(area: 'alt' | 'file', rule: string, ctx: TemplateContext, ext = 'jpg'): string {
  if (area === 'alt') return renderAltText(rule, ctx);
  const base = renderFileNameBase(rule, ctx);
  return base === '' ? '' : `${base}${ext ? `.${ext}` : ''}`;
}

/**
 * File names for all images of one item, in position order: the slug of the template plus the original
 * extension; the second and later images get -2, -3 ... so names are unique within the item and a retry
 * computes the same name for the same image. Returns null per image when nothing should change.
 */
export function decideFileNames(
  settings: FileNameSettings,
  ctx: TemplateContext & { isPublished: boolean },
  images: readonly { id: number; position: number; fileName: string }[],
): Map<number, string | null> {
  const out = new Map<number, string | null>();
  const rule = ruleOf(settings, ctx.kind);
  const applies = areaApplies(settings, ctx.kind, ctx.isPublished) && !isBlankTemplate(rule);
  const base = applies ? renderFileNameBase(rule, ctx) : '';
  const ordered = [...images].sort((a, b) => a.position - b.position || a.id - b.id);
  ordered.forEach((img, index) => {
    if (base === '') return out.set(img.id, null);
    const ext = extensionOf(img.fileName);
    const name = `${index === 0 ? base : `${base}-${index + 1}`}${ext ? `.${ext}` : ''}`;
    out.set(img.id, name === img.fileName ? null : name);
  });
  return out;
}
