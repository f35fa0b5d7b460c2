/** PHP's rawurlencode: RFC 3986, so spaces are %20 and !'()* are escaped too. */
export const rawurlencode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
