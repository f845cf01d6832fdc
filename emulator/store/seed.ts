// Seeds: the dev store (about 20 products with real photographs), empty shops, and large shops whose
// catalogue is generated on first access from the same few image bytes.
import { addArticle, addBlog, addCollection, addMainTheme, addProduct, newShop, type ImageSpec } from './factory';
import { SEED_IMAGE_NAMES, type SeedImageName } from './images';
import type { Emulator } from './registry';
import type { ShopState } from './shop-state';
import type { ProductStatus } from './types';

export const DEV_STORE_DOMAIN = 'dev-store.myshopify.com';

type Row = [
  title: string,
  vendor: string,
  type: string,
  price: string,
  images: SeedImageName[],
  extra?: { status?: ProductStatus; published?: boolean; alt?: boolean },
];

// Alt texts are left empty on some products so "only images without alt text" has work to do.
const PRODUCTS: Row[] = [
  ['Saturn V Rocket Poster', 'Orbit Prints', 'Poster', '24.00', ['rocket.jpg', 'astronaut.jpg', 'sway-blue.png']],
  ['Astronaut Portrait Print', 'Orbit Prints', 'Poster', '29.00', ['astronaut.jpg', 'rocket.jpg'], { alt: false }],
  ['Tiger Snail Macro Canvas', 'Wild Lens', 'Canvas', '59.00', ['keong-macan.jpg', 'riaphotographs.jpg', 'flower.jpg']],
  ['Morning Portrait Canvas', 'Wild Lens', 'Canvas', '64.00', ['riaphotographs.jpg', 'riaphotographs-alpha.png']],
  ['Chelsea the Cat Mug', 'Purrfect Goods', 'Mug', '14.50', ['chelsea.jpg', 'chelsea.png']],
  ['Chelsea the Cat Tote Bag', 'Purrfect Goods', 'Bag', '18.00', ['chelsea.png', 'chelsea.jpg', 'horse.png'], { alt: false }],
  ['Wild Flower Wall Art', 'Bloom & Co', 'Poster', '32.00', ['flower.jpg', 'flower-alpha.png', 'keong-macan.jpg']],
  ['Transparent Flower Sticker', 'Bloom & Co', 'Sticker', '3.50', ['flower-alpha.png', 'flower.jpg']],
  ['Horse Silhouette Decal', 'Stable Signs', 'Sticker', '4.00', ['horse.png', 'skimage-logo.png']],
  ['Science Logo T-Shirt', 'Lab Apparel', 'T-Shirt', '21.00', ['skimage-logo.png', 'horse.png', 'sway-blue.png']],
  ['Blue Wave Desk Mat', 'Calm Desk', 'Desk Mat', '27.00', ['sway-blue.png', 'rocket.jpg']],
  [
    'Space Explorer Bundle',
    'Orbit Prints',
    'Bundle',
    '79.00',
    ['rocket.jpg', 'astronaut.jpg', 'sway-blue.png', 'skimage-logo.png'],
  ],
  ['Garden Snail Postcard Set', 'Wild Lens', 'Postcard', '9.00', ['keong-macan.jpg', 'flower.jpg']],
  ['Cat Nap Throw Pillow', 'Purrfect Goods', 'Pillow', '34.00', ['chelsea.jpg', 'riaphotographs.jpg']],
  [
    'Portrait Photo Book',
    'Wild Lens',
    'Book',
    '45.00',
    ['riaphotographs.jpg', 'keong-macan.jpg', 'astronaut.jpg'],
    { published: false },
  ],
  ['Floral Notebook', 'Bloom & Co', 'Stationery', '12.00', ['flower.jpg', 'flower-alpha.png'], { published: false }],
  [
    'Launch Day Hoodie (draft)',
    'Lab Apparel',
    'Hoodie',
    '49.00',
    ['rocket.jpg', 'skimage-logo.png'],
    { status: 'DRAFT', published: false },
  ],
  [
    'Kitten Calendar (draft)',
    'Purrfect Goods',
    'Calendar',
    '16.00',
    ['chelsea.png', 'chelsea.jpg', 'horse.png'],
    { status: 'DRAFT', published: false },
  ],
  ['Retro Blue Poster (archived)', 'Calm Desk', 'Poster', '19.00', ['sway-blue.png'], { status: 'ARCHIVED', published: false }],
  ['Gift Card', 'Dev Store', 'Gift Card', '25.00', []],
];

function altFor(title: string, image: string, i: number): string {
  return i === 0 ? title : `${title} - ${image.replace(/\.(jpg|png)$/, '').replace(/-/g, ' ')}`;
}

/** The dev store of `npm start`: products (some draft or unpublished), collections and a blog, all with images. */
export function seedDevStore(emu: Emulator, shop: ShopState): void {
  for (const [title, vendor, productType, price, images, extra] of PRODUCTS) {
    addProduct(emu, shop, {
      title,
      vendor,
      productType,
      price,
      status: extra?.status,
      published: extra?.published,
      variants: productType === 'T-Shirt' || productType === 'Hoodie' ? ['S', 'M', 'L'] : undefined,
      tags: [productType.toLowerCase(), vendor.toLowerCase().replace(/ /g, '-')],
      images: images.map((seed, i): ImageSpec => ({ seed, alt: extra?.alt === false ? '' : altFor(title, seed, i) })),
    });
  }
  const byVendor = (v: string) => shop.products.filter((p) => p.vendor === v).map((p) => p.id);
  addCollection(emu, shop, {
    title: 'Home page',
    image: { seed: 'sway-blue.png', alt: 'Blue waves' },
    productIds: shop.products.slice(0, 8).map((p) => p.id),
  });
  addCollection(emu, shop, {
    title: 'Space',
    image: { seed: 'rocket.jpg', alt: 'Rocket launch' },
    productIds: byVendor('Orbit Prints'),
  });
  addCollection(emu, shop, { title: 'Cats', image: { seed: 'chelsea.jpg', alt: '' }, productIds: byVendor('Purrfect Goods') });
  addCollection(emu, shop, {
    title: 'Nature Photography',
    image: { seed: 'keong-macan.jpg', alt: 'A tiger snail' },
    productIds: byVendor('Wild Lens'),
    rules: [{ column: 'VENDOR', relation: 'EQUALS', condition: 'Wild Lens' }],
  });
  addCollection(emu, shop, {
    title: 'Flowers',
    image: { seed: 'flower-alpha.png', alt: 'Flower' },
    productIds: byVendor('Bloom & Co'),
  });
  addCollection(emu, shop, { title: 'Sale', productIds: shop.products.slice(8, 12).map((p) => p.id) });

  const news = addBlog(emu, shop, 'News');
  addArticle(emu, shop, news.id, { title: 'Our first rocket poster', image: { seed: 'rocket.jpg', alt: 'Rocket on the pad' } });
  addArticle(emu, shop, news.id, { title: 'Meet Chelsea, our shop cat', image: { seed: 'chelsea.png', alt: '' } });
  addArticle(emu, shop, news.id, { title: 'Photographing snails', image: { seed: 'keong-macan.jpg', alt: 'Snail close-up' } });
  addArticle(emu, shop, news.id, {
    title: 'Spring collection preview',
    image: { seed: 'flower.jpg', alt: 'Spring flower' },
    published: false,
  });
  addArticle(emu, shop, news.id, { title: 'Shipping update', published: true });
  const journal = addBlog(emu, shop, 'Journal');
  addArticle(emu, shop, journal.id, { title: 'Behind the portrait', image: { seed: 'riaphotographs.jpg', alt: 'Portrait' } });
  addArticle(emu, shop, journal.id, { title: 'Designing the logo tee', image: { seed: 'skimage-logo.png', alt: 'Logo' } });
  addMainTheme(emu, shop);
}

/** A shop with `products` products of `imagesPerProduct` images each; generated on first access. */
export function seedLargeShop(emu: Emulator, shop: ShopState, products: number, imagesPerProduct: number): void {
  addMainTheme(emu, shop);
  shop.lazyCatalogue = () => {
    const photos = SEED_IMAGE_NAMES.filter((n) => n.endsWith('.jpg'));
    for (let i = 0; i < products; i++) {
      addProduct(emu, shop, {
        title: `Product ${i + 1}`,
        vendor: `Vendor ${(i % 17) + 1}`,
        productType: 'Generated',
        status: i % 20 === 19 ? 'DRAFT' : 'ACTIVE',
        images: Array.from({ length: imagesPerProduct }, (_, j) => ({
          seed: photos[(i + j) % photos.length]!,
          alt: j === 0 ? `Product ${i + 1}` : '',
        })),
      });
    }
    for (let c = 0; c < Math.max(1, Math.floor(products / 500)); c++) {
      addCollection(emu, shop, {
        title: `Collection ${c + 1}`,
        image: { seed: photos[c % photos.length]! },
        productIds: shop.products.slice(c * 500, c * 500 + 500).map((p) => p.id),
      });
    }
    const blog = addBlog(emu, shop, 'News');
    for (let a = 0; a < 20; a++)
      addArticle(emu, shop, blog.id, { title: `Article ${a + 1}`, image: { seed: photos[a % photos.length]! } });
  };
}

export type SeedKind = 'dev' | 'empty' | 'large';
export type CreateShopOptions = { domain?: string; name?: string; seed?: SeedKind; products?: number; imagesPerProduct?: number };

export function createShop(emu: Emulator, opts: CreateShopOptions = {}): ShopState {
  const domain = opts.domain ?? `test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.myshopify.com`;
  if (emu.shops.has(domain)) throw new Error(`shop ${domain} already exists`);
  const shop = newShop(
    emu,
    domain,
    opts.name ?? (domain === DEV_STORE_DOMAIN ? 'Dev Store' : domain.replace(/\.myshopify\.com$/, '')),
  );
  emu.shops.set(domain, shop);
  const seed = opts.seed ?? 'dev';
  if (seed === 'dev') seedDevStore(emu, shop);
  else if (seed === 'large') seedLargeShop(emu, shop, opts.products ?? 10_000, opts.imagesPerProduct ?? 4);
  else addMainTheme(emu, shop);
  return shop;
}
