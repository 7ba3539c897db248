/**
 * A short, readable name for a User-Agent string, for the access log:
 * "Chrome 156 on Linux", "Safari 17 on iOS 17", "curl/8.5.0".
 *
 * Only the common browsers and systems are named; the full string stays
 * available next to the summary. Order matters: most browsers also claim to be
 * the ones they descend from (Edge, Opera and Samsung Internet say "Chrome",
 * Chrome says "Safari"), so the most specific token is tried first.
 */

interface Rule {
  name: string;
  /** Its one group is the major version. */
  pattern: RegExp;
}

const BROWSERS: readonly Rule[] = [
  { name: 'Edge', pattern: /\b(?:Edg|EdgA|EdgiOS|Edge)\/(\d+)/ },
  { name: 'Opera', pattern: /\b(?:OPR|OPT|OPiOS)\/(\d+)/ },
  { name: 'Samsung Internet', pattern: /\bSamsungBrowser\/(\d+)/ },
  { name: 'Headless Chrome', pattern: /\bHeadlessChrome\/(\d+)/ },
  { name: 'Chromium', pattern: /\bChromium\/(\d+)/ },
  { name: 'Chrome', pattern: /\b(?:Chrome|CriOS)\/(\d+)/ },
  { name: 'Firefox', pattern: /\b(?:Firefox|FxiOS)\/(\d+)/ },
  // Safari gives its own version after "Version/"; the "Safari/" number is WebKit's.
  { name: 'Safari', pattern: /\bVersion\/(\d+)[.\d]*(?: Mobile\/\w+)? Safari\// },
];

const WINDOWS_VERSIONS: Readonly<Record<string, string>> = {
  '6.1': 'Windows 7',
  '6.2': 'Windows 8',
  '6.3': 'Windows 8.1',
};

function browserOf(agent: string): string | null {
  for (const { name, pattern } of BROWSERS) {
    const match = pattern.exec(agent);
    if (match) return `${name} ${match[1]}`;
  }
  return null;
}

/** The major version of "17_4" or "14", or '' when there is none. */
function major(version: string | undefined): string {
  return version?.split(/[._]/, 1)[0] ?? '';
}

function withVersion(name: string, version: string): string {
  return version ? `${name} ${version}` : name;
}

function systemOf(agent: string): string | null {
  // iPadOS first: an iPad's agent also says "like Mac OS X". (An iPad asking for
  // desktop sites says "Macintosh" and cannot be told from a Mac.)
  const ipad = /\biPad\b.*?\bOS (\d+)[_.\d]*/.exec(agent);
  if (ipad || /\biPad\b/.test(agent)) return withVersion('iPadOS', major(ipad?.[1]));
  const iphone = /\b(?:iPhone|iPod)\b.*?\bOS (\d+)[_.\d]*/.exec(agent);
  if (iphone || /\b(?:iPhone|iPod)\b/.test(agent)) return withVersion('iOS', major(iphone?.[1]));
  const android = /\bAndroid(?: (\d+))?/.exec(agent);
  if (android) return withVersion('Android', major(android[1]));
  if (/\bCrOS\b/.test(agent)) return 'ChromeOS';
  const windows = /\bWindows NT (\d+\.\d+)/.exec(agent);
  // 10.0 is both Windows 10 and 11: browsers stopped telling them apart.
  if (windows) return WINDOWS_VERSIONS[windows[1]!] ?? 'Windows';
  if (/\bWindows\b/.test(agent)) return 'Windows';
  // Browsers froze the macOS version in their agent (10_15_7), so none is given.
  if (/\bMac OS X\b|\bMacintosh\b/.test(agent)) return 'macOS';
  if (/\bLinux\b|\bX11\b/.test(agent)) return 'Linux';
  return null;
}

/**
 * "{browser} {major version} on {system}"; "Unknown browser on {system}" for a
 * browser it does not know; otherwise (a tool such as curl) the agent's first
 * product token, which is the whole string for most tools. '' for a blank agent.
 */
export function summarizeUserAgent(userAgent: string): string {
  const agent = userAgent.trim();
  if (!agent) return '';
  const browser = browserOf(agent);
  const system = systemOf(agent);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Unknown browser on ${system}`;
  return agent.split(/\s+/, 1)[0]!;
}
