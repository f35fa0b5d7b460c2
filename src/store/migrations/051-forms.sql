-- Forms (forms-views, forms-submissions): forms, their fields in order, and submissions whose
-- values are keyed by field id. Submissions are numbered per form (the legacy _seq_num).
create table forms (
  id bigserial primary key,
  title text not null,
  -- Site paths whose page shows this form's submissions table (forms-views token/refresh checks the Referer against them).
  table_pages text[] not null default '{}',
  next_seq integer not null default 1
);

create table form_fields (
  id bigserial primary key,
  form_id bigint not null references forms(id) on delete cascade,
  key text not null,
  label text not null,
  admin_label text not null default '',
  type text not null,
  options jsonb not null default '[]',
  position integer not null default 0,
  unique (form_id, key)
);
create index form_fields_form on form_fields(form_id, position);

create table form_submissions (
  id bigserial primary key,
  form_id bigint not null references forms(id) on delete cascade,
  seq_num integer not null,
  status text not null default 'active' check (status in ('active', 'trash')),
  submitted_at timestamptz not null,
  -- field id (as text) -> value (a string, or a list for multi-value fields)
  field_values jsonb not null default '{}',
  extra jsonb not null default '{}'
);
create index form_submissions_form on form_submissions(form_id, status, submitted_at desc, id desc);
