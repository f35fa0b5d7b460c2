/** Downloads demo content: a free package, a press kit under two passwords with a use limit, and a premium package. */
import type { Clock } from '../../clock.ts';
import type { NewPackage } from '../../store/downloads.ts';
import type { Store } from '../../store/store.ts';

const text = (s: string) => ({ fileType: 'text/plain; charset=UTF-8', fileData: Buffer.from(s, 'utf8') });

export const DEMO_PACKAGES: NewPackage[] = [
  {
    slug: 'season-programme', title: 'Season programme', content: 'Every concert, film night and workshop of the season.', basePrice: 0,
    passwordLock: false, passwords: [], passwordUsageLimit: 0, fileName: 'season-programme.txt', ...text('Season programme\n\nAutumn Jazz Night, Film Club, ...\n'),
  },
  {
    slug: 'press-kit', title: 'Press kit', content: 'Photos and texts for journalists covering the season.', basePrice: 0,
    passwordLock: true, passwords: ['press-2026', 'media-pass'], passwordUsageLimit: 5, fileName: 'press-kit.txt', ...text('Press kit\n\nContact: press@example.org\n'),
  },
  {
    slug: 'concert-recordings', title: 'Concert recordings', content: 'Live recordings of last season\'s jazz nights.', basePrice: 9.99,
    passwordLock: true, passwords: ['encore'], passwordUsageLimit: 0, fileName: 'recordings.txt', ...text('Track list\n\n1. Opening\n2. Encore\n'),
  },
];

export async function seedDownloadsDemo(store: Store, _clock: Clock): Promise<void> {
  await store.transaction(async (s) => {
    for (const p of DEMO_PACKAGES) await s.downloads.create(p);
  });
}
