import { describe, expect, it } from 'vitest';
import { escUrlRaw, wpSanitizeRedirect } from './esc-url.ts';

// Each expected value is what WordPress 7.0's esc_url_raw returned for the input.
describe('escUrlRaw', () => {
  it.each([
    ['http://a/b\0c', 'http://a/bc'],
    [' x y', 'http://x%20y'],
    ['javascript:alert(1)', ''],
    ['HTTP://X/[a]', 'http://X/%5Ba%5D'],
    ['example.com/a:b', ''],
    ['feed:javascript:x', ''],
    ['feed:http://x', 'feed:http://x'],
    ['//h[1]/p[2]', '//h[1]/p%5B2%5D'],
    ['a&#58;b', 'http://a&#58;b'],
    ['%0%0dd', 'http://'],
    ['mailto:%0a', 'mailto:%0a'],
    ['index.php?x', 'index.php?x'],
    ['é:x', ''],
    ['http://[::1]:80/a[b]?c[]=1', 'http://[::1]:80/a%5Bb%5D?c%5B%5D=1'],
    ['0', 'http://0'],
    ['', ''],
  ])('cleans %j as WordPress does', (input, expected) => {
    expect(escUrlRaw(input)).toBe(expected);
  });
});

// Each expected value is the Location the legacy site sent for a redirect to the input: its front page's
// canonical redirect, or a regex rule `^/blog/(.*)$` → `/news/$1` given the decoded request path.
describe('wpSanitizeRedirect', () => {
  it.each([
    ['/news/a\r\nb"x<y>', '/news/abxy'],
    ['/news/é x~€', '/news/%C3%A9%20x~%E2%82%AC'],
    ["/news/😀'(q)", '/news/%F0%9F%98%80(q)'],
    ["/x/?rest_route=&b=\"q'<>{}|^`$%0d%0%0AAb", '/x/?rest_route=&b=qb'],
    ['/x/?page[a][b]=25&s=%f2%90&c[prototype][x]=%0D%0AX-Injected%3A%201', '/x/?page[a][b]=25&s=%f2%90&c[prototype][x]=X-Injected%3A%201'],
  ])('sends %j as %j', (location, expected) => {
    expect(wpSanitizeRedirect(location)).toBe(expected);
  });
});
