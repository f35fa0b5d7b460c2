/** Forms demo content: a contact form and an event feedback form, with submissions over the last weeks. */
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/store.ts';

interface DemoForm {
  title: string;
  tablePages: string[];
  fields: { key: string; label: string; adminLabel?: string; type: string; options?: { label: string; value: string }[] }[];
  /** Values by field key, and how many days before the first start they came in. */
  submissions: { daysAgo: number; values: Record<string, string | string[]> }[];
}

const option = (label: string) => ({ label, value: label.toLowerCase().replace(/\W+/g, '-') });

const DEMO: DemoForm[] = [
  {
    title: 'Contact Me',
    tablePages: ['/contact/submissions/'],
    fields: [
      { key: 'name', label: 'Name', type: 'textbox' },
      { key: 'email', label: 'Email', adminLabel: 'E-mail address', type: 'email' },
      { key: 'topics', label: 'Topics', type: 'listcheckbox', options: ['Tickets', 'Venues', 'Press'].map(option) },
      { key: 'message', label: 'Message', type: 'textarea' },
      { key: 'submit', label: 'Send', type: 'submit' },
    ],
    submissions: [
      { daysAgo: 21, values: { name: 'Ada Byron', email: 'ada@example.org', topics: ['tickets'], message: 'Are there student prices for the jazz nights?' } },
      { daysAgo: 9, values: { name: 'Grace Hopper', email: 'grace@example.org', topics: ['venues', 'press'], message: 'Could we visit the hall before the concert?' } },
      { daysAgo: 2, values: { name: 'Alan Kay', email: 'alan@example.org', topics: [], message: 'Thanks for the lovely evening.' } },
    ],
  },
  {
    title: 'Event feedback',
    tablePages: ['/feedback/'],
    fields: [
      { key: 'event', label: 'Which event?', adminLabel: 'Event', type: 'textbox' },
      { key: 'rating', label: 'Rating', type: 'listselect', options: ['1', '2', '3', '4', '5'].map(option) },
      { key: 'divider', label: '', type: 'hr' },
      { key: 'comments', label: 'Comments', type: 'textarea' },
      { key: 'submit', label: 'Submit', type: 'submit' },
    ],
    submissions: [
      { daysAgo: 14, values: { event: 'Autumn Jazz Night', rating: '5', comments: 'Wonderful quartet.' } },
      { daysAgo: 5, values: { event: 'Film Club', rating: '3', comments: 'Sound was too low at the back.' } },
    ],
  },
];

export async function seedFormsDemo(store: Store, clock: Clock): Promise<void> {
  const now = clock.now().getTime();
  await store.transaction(async (s) => {
    for (const form of DEMO) {
      const formId = await s.forms.createForm(form.title, form.tablePages);
      const ids = new Map<string, number>();
      for (const [i, f] of form.fields.entries()) {
        ids.set(f.key, await s.forms.addField(formId, { key: f.key, label: f.label, adminLabel: f.adminLabel ?? '', type: f.type, options: f.options ?? [] }, i));
      }
      for (const sub of [...form.submissions].sort((a, b) => b.daysAgo - a.daysAgo)) {
        const values = Object.fromEntries(Object.entries(sub.values).map(([k, v]) => [String(ids.get(k)), v]));
        await s.forms.addSubmission(formId, values, new Date(now - sub.daysAgo * 86_400_000));
      }
    }
  });
}
