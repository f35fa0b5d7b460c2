import { describe, expect, it } from 'vitest';
import type { EventRow, OrganizerRow, VenueRow } from '../../store/calendar.ts';
import { icalFeed, type FeedEvent } from './ical.ts';

const at = new Date('2026-11-27T12:00:00Z');
function feed(event: Partial<EventRow>, more: Partial<FeedEvent> = {}): string[] {
  const row = { id: 27, password: '', title: 'X', description: '', start_date: '2027-03-01 18:00:00', end_date: '2027-03-01 20:00:00', timezone: 'UTC', created: at, modified: at, ...event } as EventRow;
  return icalFeed({ name: 'Oracle Site', home: 'http://127.0.0.1:8088' }, [{ event: row, categories: [], url: 'http://127.0.0.1:8088/event/x/', ...more }]).split('\r\n');
}
const line = (lines: string[], name: string) => lines.find((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`));

// Each expectation is what the legacy feed (The Events Calendar 6.17 on PHP 8.2) wrote for an event so written.
describe('the text of an event in the iCal feed', () => {
  it("decodes every reference html_entity_decode knows (HTML 4.01's names, numeric ones it allows), after stripping the title's tags", () => {
    const lines = feed({ title: 'Nbsp&nbsp;and &copy; &#1; &AMP; &lt;i&gt; &#8217; <b>bold</b>, &#x1F3B8;' });
    expect(line(lines, 'SUMMARY')).toBe('SUMMARY:Nbsp\u00a0and © &#1; &AMP; <i> ’ bold\\, 🎸');
  });

  it('writes the description as wp_strip_all_tags leaves the_content: script and style gone with their content, a < before a space kept', () => {
    const lines = feed({ description: '<p>Tom &amp; Jerry&nbsp;show &copy; 2027 &#1; &AMP; x</p><p>second, para; <b>bold</b></p><script>alert(1)</script>a < b' });
    expect(line(lines, 'DESCRIPTION')).toBe('DESCRIPTION:Tom & Jerry\u00a0show © 2027 &#1; &AMP; x \\nsecond\\, para; bold \\na < b');
  });

  it('decodes the categories and the location', () => {
    const venue = { name: 'Hall &amp; Co', address: '1 Main St', city: 'Paris', stateprovince: '', state: '', province: '', zip: '', country: '' } as VenueRow;
    const lines = feed({}, { categories: ['Rock &amp; Roll', 'Caf&eacute;'], venue });
    expect(line(lines, 'CATEGORIES')).toBe('CATEGORIES:Rock & Roll,Café');
    expect(line(lines, 'LOCATION')).toBe('LOCATION:Hall & Co\\, 1 Main St\\, Paris');
  });

  it("quotes the organizer's name as sanitize_organizer_name does: rawurlencoded but for the characters it puts back, one after another", () => {
    const organizer = { name: 'Smith, Jones; &amp; "Co": Café %5E ^', email: 'co@example.com' } as OrganizerRow;
    expect(line(feed({}, { organizer }), 'ORGANIZER')).toBe("ORGANIZER;CN=\"Smith%2C Jones%3B &amp%3B 'Co'%3A Caf%C3%A9 ^ ^\":MAILTO:co@example.com");
  });
});
