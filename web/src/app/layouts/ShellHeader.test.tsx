import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import indexHtml from '../../../index.html?raw';
import '../../lib/i18n';
import { ShellHeader } from './ShellHeader';

// index.html paints the bar before any script; ShellHeader keeps it while the configuration
// loads. If the two differ, the first paint jumps when the app starts.
const header = (html: string) =>
  html
    .slice(html.indexOf('<header'), html.indexOf('</header>') + '</header>'.length)
    .replace(/<(rect|path)([^>]*?)\s*\/>/g, '<$1$2></$1>')
    .replace(/>\s+</g, '><')
    .replace(/\s+/g, ' ');

describe('the first paint', () => {
  it('is the same bar in index.html as the app draws while it starts', () => {
    expect(header(indexHtml)).toContain('site-header__logo');
    expect(header(indexHtml)).toBe(header(renderToStaticMarkup(<ShellHeader />)));
  });
});
