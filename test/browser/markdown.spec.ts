import { expect } from 'chai';
import { createRequire } from 'node:module';
import { createElement, type ReactElement } from 'react';
import { STOREFRONT_DIR } from './helpers.ts';

/**
 * The storefront's renderer of the assistant's Markdown (examples/storefront/src/markdown.tsx, issue 34 §4), rendered
 * to HTML with the storefront's own React: links, bold, lists and prices come out as elements; HTML in an answer
 * stays text; only http(s) and the site's own paths become links. Needs the storefront installed (as the browser
 * tests do: `npm run storefront:install`).
 */
describe('browser: the storefront renders the assistant\'s Markdown safely', () => {
  const SITE = 'http://site.test';
  let render: (text: string, locale: 'en' | 'vi') => string;
  before(async () => {
    (globalThis as { window?: unknown }).window ??= { location: { origin: SITE } };
    const require = createRequire(`${STOREFRONT_DIR}package.json`);
    const { renderToStaticMarkup } = require('react-dom/server') as { renderToStaticMarkup(element: ReactElement): string };
    const { Markdown } = await import('../../examples/storefront/src/markdown.tsx');
    render = (text, locale) => renderToStaticMarkup(createElement(Markdown, { text, locale }));
  });
  after(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it('renders paragraphs, bold, emphasis, code, bullet and numbered lists', () => {
    const html = render('Prices for **Saigon Chronicles**:\n- Dinner and show: *per guest*\n- Show only `SGC-SHOW`\n\n1. Pick a date\n2. Book', 'en');
    expect(html).to.equal(
      '<p><span>Prices for <strong>Saigon Chronicles</strong>:</span></p><ul><li>Dinner and show: <em>per guest</em></li><li>Show only <code>SGC-SHOW</code></li></ul><ol><li>Pick a date</li><li>Book</li></ol>',
    );
  });

  it('keeps HTML as text: no element, no attribute, no script comes out of an answer', () => {
    const html = render('<img src=x onerror="alert(1)"> <script>alert(2)</script> <a href="javascript:alert(3)">x</a>', 'en');
    expect(html).to.not.match(/<img|<script|<a /);
    expect(html).to.include('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).to.include('&lt;script&gt;');
  });

  it('makes links only of http(s) addresses and the site\'s paths', () => {
    const html = render('[Book](https://site.test/vi/shows/saigon-chronicles) [evil](javascript:alert(1)) [data](data:text/html,x) see https://site.test/en/partners. [here](/en/inquiries)', 'en');
    expect(html.match(/<a [^>]*>/g)).to.deep.equal([
      '<a href="https://site.test/vi/shows/saigon-chronicles" rel="noopener noreferrer">',
      '<a href="https://site.test/en/partners" rel="noopener noreferrer">',
      `<a href="${SITE}/en/inquiries">`,
    ]);
    expect(html).to.include('[evil](javascript:alert(1))');
    expect(html).to.include('[data](data:text/html,x)');
    expect(html).to.include('partners</a>.');
  });

  it('writes prices in the site\'s format, however the answer wrote them', () => {
    const en = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(1_871_100);
    const vi = new Intl.NumberFormat('vi-VN', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(1_871_100);
    for (const written of ['1,871,100 VND', '1.871.100 VND', '1.871.100 ₫', '1871100 đ', '₫1,871,100', '1 871 100 VNĐ']) {
      expect(render(`Total: ${written} per guest`, 'en'), written).to.equal(`<p><span>Total: ${en} per guest</span></p>`);
      expect(render(`Tổng: ${written} mỗi khách`, 'vi'), written).to.equal(`<p><span>Tổng: ${vi} mỗi khách</span></p>`);
    }
    expect(render('Doors open at 19:30 on 5 December 2026, 120 seats.', 'en')).to.equal('<p><span>Doors open at 19:30 on 5 December 2026, 120 seats.</span></p>');
  });
});
