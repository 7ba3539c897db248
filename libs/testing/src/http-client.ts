/** A tiny cookie-keeping client for API tests: what a browser would send, nothing more. */
export class ApiClient {
  private cookie?: string;

  /**
   * Each client acts from its own address (sent as X-Forwarded-For, which the
   * test stacks trust from 127.0.0.1), so sign-in limits of one test never
   * touch another.
   */
  constructor(
    readonly baseUrl: string,
    readonly address = `10.${rand()}.${rand()}.${rand()}`,
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const raw = typeof body === 'string';
    const response = await fetch(this.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        'x-forwarded-for': this.address,
        ...headers,
      },
      body: body === undefined ? undefined : raw ? (body as string) : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer's fields as it expects them; its assertions check them.
    return { status: response.status, text, json: json as any, headers: response.headers };
  }

  get sessionCookie() {
    return this.cookie;
  }

  set sessionCookie(value: string | undefined) {
    this.cookie = value;
  }

  login(username: string, password: string) {
    return this.request('POST', '/api/login', { username, password });
  }
}

const rand = () => Math.floor(Math.random() * 254) + 1;
