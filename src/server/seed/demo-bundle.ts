/**
 * The demo content as a content file (format version 1), with its images generated and embedded, so
 * seeding goes through the same import as any other file.
 */
import { CONTENT_FORMAT, CONTENT_FORMAT_VERSION, type ContentBundleInput } from '../../shared/content-bundle';
import { rasterizeTrustedSvg, type ProcessedImage } from '../media/process';
import { DEMO_ARTICLES, type DemoAuthor } from './demo-articles';
import { DEMO_BUILDS, DEMO_PACKAGES, DEMO_SERVICES } from './demo-catalog';
import {
  AVATAR_SIZE,
  CARD_HEIGHT,
  CARD_WIDTH,
  cardIllustrationSvg,
  initialsAvatarSvg,
  type Motif,
} from './illustrations';

type MediaEntry = NonNullable<ContentBundleInput['media']>[number];

/** Collects generated images, each stored once however many records use it. */
class ImageSet {
  private readonly entries = new Map<string, Promise<{ image: ProcessedImage; alt: string }>>();

  private async add(key: string, alt: string, render: () => Promise<ProcessedImage>): Promise<string> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = render().then((image) => ({ image, alt }));
      this.entries.set(key, entry);
    }
    return (await entry).image.url;
  }

  card(motif: Motif, variant: number, alt: string): Promise<string> {
    return this.add(`card:${motif}:${variant}`, alt, () =>
      rasterizeTrustedSvg(cardIllustrationSvg(motif, variant), CARD_WIDTH, CARD_HEIGHT),
    );
  }

  avatar(author: DemoAuthor): Promise<string> {
    return this.add(`avatar:${author.name}`, `Portrait placeholder for ${author.name}`, () =>
      rasterizeTrustedSvg(initialsAvatarSvg(author.name, author.color), AVATAR_SIZE, AVATAR_SIZE),
    );
  }

  async media(): Promise<MediaEntry[]> {
    const all = await Promise.all(this.entries.values());
    const unique = new Map(all.map(({ image, alt }) => [image.id, { image, alt }]));
    return [...unique.values()].map(({ image, alt }) => ({
      id: image.id,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      alt,
      data: image.data.toString('base64'),
    }));
  }
}

const DAY_MS = 86_400_000;

/** The demo content as of `now`: records dated over the last few months, newest articles first. */
export async function buildDemoBundle(now: Date = new Date()): Promise<ContentBundleInput> {
  const daysAgo = (days: number, minutes = 0) => new Date(now.getTime() - days * DAY_MS - minutes * 60_000).toISOString();
  const images = new ImageSet();

  const [services, packages, demos, articles] = await Promise.all([
    Promise.all(
      DEMO_SERVICES.map(async ({ motif, ...s }, i) => ({
        ...s,
        picture: await images.card(motif, i, `Illustration for ${s.name}`),
        order: i,
        createdAt: daysAgo(120, i),
        updatedAt: daysAgo(30 - i),
      })),
    ),
    Promise.all(
      DEMO_PACKAGES.map(async ({ motif, ...p }, i) => ({
        ...p,
        picture: await images.card(motif, DEMO_SERVICES.length + i, `Illustration for the ${p.name} package`),
        order: i,
        createdAt: daysAgo(110, i),
        updatedAt: daysAgo(20 - i),
      })),
    ),
    Promise.all(
      DEMO_BUILDS.map(async ({ motif, ...d }, i) => ({
        ...d,
        profilePicture: await images.card(motif, DEMO_SERVICES.length + DEMO_PACKAGES.length + i, `Illustration for the ${d.name} demo`),
        order: i,
        createdAt: daysAgo(90, i),
        updatedAt: daysAgo(15 - i),
      })),
    ),
    Promise.all(
      DEMO_ARTICLES.map(async ({ motif, author, daysAgo: age, ...a }, i) => ({
        id: a.id,
        slug: a.id,
        title: a.title,
        excerpt: a.excerpt,
        content: a.content,
        featuredImage: await images.card(motif, DEMO_SERVICES.length + DEMO_PACKAGES.length + DEMO_BUILDS.length + i, a.featuredImageAlt),
        // Its alt text is the picture's own, on the media entry (decision 033).
        authorName: author.name,
        authorImage: await images.avatar(author),
        tags: a.tags,
        published: a.published,
        createdAt: daysAgo(age),
        updatedAt: daysAgo(age),
      })),
    ),
  ]);

  return {
    format: CONTENT_FORMAT,
    version: CONTENT_FORMAT_VERSION,
    exportedAt: now.toISOString(),
    services,
    packages,
    demos,
    articles,
    media: await images.media(),
  };
}
