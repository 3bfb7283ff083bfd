/**
 * Removes every way an SVG can load something from elsewhere or run script, as an svgo plugin, so
 * it works on the parsed tree (entities already decoded, namespace prefixes visible) rather than
 * on text a crafted document could hide things in. What stays may reference only the document
 * itself (`#id`) or carry an embedded raster (`data:image/png;base64,...`). Each removal (an
 * element with its content, an attribute, a CSS rule or declaration, a processing instruction)
 * counts once.
 */
import type { CustomPlugin, XastElement, XastParent } from 'svgo';

/** Elements removed with everything inside them (matched on the local name, any prefix or case). */
const UNSAFE_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'frame',
  'frameset',
  'embed',
  'object',
  'applet',
  'link',
  'meta',
  'base',
  'handler',
  'listener',
  'audio',
  'video',
  'source',
  'track',
  'img',
  'form',
  'input',
  'button',
  'textarea',
  'html',
  'body',
]);

/** Animation elements: removed when they would animate a link or an event handler. */
const ANIMATIONS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor']);

/** Embedded rasters are allowed in href; any other data: type (SVG, HTML) could carry script. */
const RASTER_DATA = /^data:image\/(?:png|jpe?g|gif|webp|bmp|avif|x-icon|vnd\.microsoft\.icon)[;,]/i;

/** CSS functions that fetch (besides url()) or run code. */
const CSS_FETCHING =
  /(?:^|[^\w-])(?:-webkit-|-moz-)?(?:image-set|image|src|cross-fade|element|expression)\s*\(|-moz-binding|behavior\s*:|(?:java|vb)script:/i;
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi;
/**
 * url() with the space or list comma after it, and a look at the rest of the value (a fallback,
 * `!important`, or nothing).
 */
const OUTSIDE_URL = new RegExp(String.raw`${CSS_URL.source}(\s*,?\s*)(?=([^;}]*))`, 'gi');
const CSS_IMPORT = /@import[^;{}]*(?:;|$)/gi;

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

/** CSS escapes (`\75 rl(` is `url(`) decoded, so they cannot hide a function name. */
function cssUnescape(text: string): string {
  return text.replace(/\\([0-9a-f]{1,6})\s?|\\([\s\S])/gi, (_, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff) || 0xfffd) : (char ?? ''),
  );
}

const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');

/** URL schemes survive whitespace and control characters inside them in browsers' parsers. */
const compact = (value: string) =>
  Array.from(value)
    .filter((char) => char.trim() !== '' && (char.codePointAt(0) ?? 0) >= 0x20)
    .join('')
    .toLowerCase();

function isFragment(target: string): boolean {
  return target.trim().startsWith('#');
}

/** Whether a CSS text (declaration, presentation attribute, animation value) can fetch or run anything. */
function cssIsUnsafe(raw: string): boolean {
  const css = cssUnescape(withoutComments(raw));
  if (CSS_FETCHING.test(css) || /@import/i.test(css) || compact(css).includes('javascript:')) return true;
  for (const match of css.matchAll(CSS_URL)) {
    if (!isFragment(match[1] ?? match[2] ?? match[3] ?? '')) return true;
  }
  return false;
}

function linkIsSafe(value: string): boolean {
  const target = value.trim();
  return isFragment(target) || RASTER_DATA.test(compact(target));
}

/**
 * A CSS value or declaration with its outside url()s taken out (withoutOutsideUrls), or null when
 * something unsafe is left (an escaped or fetching function, script): it then goes as a whole.
 * Counts one removal per url() taken out, or one for the whole.
 */
function cleanCss(css: string, count: () => void): string | null {
  if (!cssIsUnsafe(css)) return css;
  let urls = 0;
  const cleaned = withoutOutsideUrls(css, () => urls++);
  const safe = cleaned.trim() !== '' && !cssIsUnsafe(cleaned);
  for (let i = 0; i < (safe ? urls : 1); i++) count();
  return safe ? cleaned : null;
}

/** A style attribute without its unsafe declarations or outside url()s; counts them. */
function cleanDeclarations(style: string, count: () => void): string {
  if (!cssIsUnsafe(style)) return style;
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const cleaned = cleanCss(declaration, count);
    if (cleaned?.trim()) kept.push(cleaned.trim());
  }
  return kept.join(';');
}

/** A `<style>` sheet without imports and outside url()s; null when it cannot be cleaned in place. */
function cleanSheet(sheet: string, count: () => void): string | null {
  const css = withoutComments(sheet);
  // Escapes could spell an import or url() the patterns below do not see: the whole sheet goes.
  if (css.includes('\\')) return null;
  let cleaned = css.replace(CSS_IMPORT, () => {
    count();
    return '';
  });
  cleaned = withoutOutsideUrls(cleaned, count);
  return cssIsUnsafe(cleaned) ? null : cleaned;
}

/**
 * CSS text with each outside url() taken out the way a browser that cannot load it falls back:
 * followed by a comma (a cursor or background list), the list goes on without it; followed by a
 * fallback (`url(...) red`), the fallback stays; alone, it becomes `none`. So a paint server that
 * never loads paints nothing, as in a browser, instead of the default black.
 */
function withoutOutsideUrls(css: string, count: () => void): string {
  return css.replace(OUTSIDE_URL, (whole, double?: string, single?: string, bare?: string, after = '', rest = '') => {
    if (isFragment(double ?? single ?? bare ?? '')) return whole;
    count();
    if (after.includes(',')) return '';
    const fallback = rest.trim();
    return fallback === '' || fallback.startsWith('!') ? `none${after && ' '}` : '';
  });
}

/** An attribute's value with what is unsafe taken out, or null to remove it; counts removals. */
function cleanAttribute(name: string, value: string, count: () => void): string | null {
  const local = localName(name);
  const link = local === 'href' || local === 'src';
  if (local.startsWith('on') || name === 'xml:base' || (link && !linkIsSafe(value))) {
    count();
    return null;
  }
  if (link) return value;
  if (local === 'style') return cleanDeclarations(value, count) || null;
  return cleanCss(value, count);
}

function cleanAttributes(node: XastElement, count: () => void): void {
  for (const [name, value] of Object.entries(node.attributes)) {
    if (name.startsWith('xmlns')) continue;
    const cleaned = cleanAttribute(name, value, count);
    if (cleaned === null) delete node.attributes[name];
    else if (cleaned !== value) node.attributes[name] = cleaned.trim();
  }
}

function isUnsafeElement(node: XastElement): boolean {
  const local = localName(node.name);
  if (UNSAFE_ELEMENTS.has(local)) return true;
  if (!ANIMATIONS.has(local)) return false;
  const target = localName(node.attributes.attributeName ?? '');
  return target === 'href' || target === 'src' || target === 'style' || target.startsWith('on');
}

function detach(node: { type: string }, parent: XastParent): void {
  parent.children = parent.children.filter((child) => child !== node);
}

/** The plugin, and the number of removals it made once svgo has run it. */
export function sanitizer(): { plugin: CustomPlugin; removed: () => number } {
  let removed = 0;
  const count = () => {
    removed++;
  };
  const plugin: CustomPlugin = {
    name: 'troveRemoveExternalAndScript',
    fn: () => ({
      doctype: {
        enter(node, parent) {
          detach(node, parent);
          count();
        },
      },
      instruction: {
        enter(node, parent) {
          // The XML declaration is harmless; any other (xml-stylesheet) loads or transforms.
          if (node.name.toLowerCase() === 'xml') return;
          detach(node, parent);
          count();
        },
      },
      element: {
        enter(node, parent) {
          if (isUnsafeElement(node)) {
            detach(node, parent);
            count();
            return;
          }
          cleanAttributes(node, count);
          if (localName(node.name) !== 'style') return;
          for (const child of node.children) {
            if (child.type !== 'text' && child.type !== 'cdata') continue;
            const cleaned = cleanSheet(child.value, count);
            if (cleaned === null) {
              detach(node, parent);
              count();
              return;
            }
            child.value = cleaned;
          }
        },
      },
    }),
  };
  return { plugin, removed: () => removed };
}
