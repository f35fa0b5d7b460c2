/** The calendar records' pages as the legacy site's permalinks name them; the backends send them to the origin while it answers the calendar. */
export const RECORD_PAGE = /^(?:\/([^/]+))?\/(event|venue|organizer)\/([^/]+)\/(embed\/)?$/;

/** Whether a path is a calendar record's page (`/event/{slug}/`, `/fr/venue/{slug}/embed/`, ...). */
export const isRecordPage = (pathname: string) => RECORD_PAGE.test(pathname);
