/**
 * Real nginx for the deployment test: finds the program, makes a self-signed certificate, renders
 * deploy/nginx/zapdesk.conf for this machine (the nodes' addresses, free ports, temporary paths)
 * and runs it in the foreground. When nginx or openssl is missing the test says so and skips,
 * except on CI, where this throws: there the test must run (`npm run test:setup` installs both).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './server-process.js';

export const NGINX_CONF = path.join(ROOT, 'deploy/nginx/zapdesk.conf');

function onPath(name: string, fallback: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of [...dirs, path.dirname(fallback)]) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** nginx and openssl, or undefined after saying which is missing (thrown on CI). */
export function nginxTools(): { nginx: string; openssl: string } | undefined {
  const named = process.env.NGINX_PATH;
  const nginx = named ? (fs.existsSync(named) ? named : undefined) : onPath('nginx', '/usr/sbin/nginx');
  const openssl = onPath('openssl', '/usr/bin/openssl');
  const missing = !nginx
    ? named
      ? `NGINX_PATH=${named} does not exist`
      : 'nginx is not installed: run npm run test:setup'
    : !openssl
      ? 'openssl is not installed: run npm run test:setup'
      : undefined;
  if (!missing) return { nginx: nginx ?? '', openssl: openssl ?? '' };
  if (process.env.CI) throw new Error(`${missing} (the deployment test must run on CI; NGINX_PATH names another nginx).`);
  console.warn(`Skipping the nginx deployment test: ${missing} (NGINX_PATH names another nginx).`);
  return undefined;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A self-signed certificate for 127.0.0.1 (P-256, one day), written into `dir`. */
export function selfSignedCertificate(openssl: string, dir: string): { cert: string; key: string; pem: Buffer } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  execFileSync(openssl, [...args, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'pipe' });
  return { cert, key, pem: fs.readFileSync(cert) };
}

export type RenderOptions = { upstreams: string[]; httpPort: number; httpsPort: number; cert: string; key: string; dir: string; maxBodyMb: number };

/** Replaces `pattern` in `text`, failing when the shipped configuration no longer has it. */
function swap(text: string, pattern: RegExp, by: string | ((match: string) => string)): string {
  if (!pattern.test(text)) throw new Error(`deploy/nginx/zapdesk.conf no longer has ${pattern}: update the test's rendering`);
  return text.replace(pattern, by as string);
}

/**
 * The shipped configuration with what an operator replaces filled in for this machine, inside a
 * main configuration whose every path is in `dir` (pid, logs, temporary files): nothing of the
 * system's nginx is read or written.
 */
export function renderConfig(o: RenderOptions): string {
  let site = fs.readFileSync(NGINX_CONF, 'utf8');
  let n = 0;
  site = swap(site, /server 10\.0\.0\.1\d:8080/g, () => `server ${o.upstreams[n++] ?? ''}`);
  if (n !== o.upstreams.length) throw new Error(`deploy/nginx/zapdesk.conf has ${n} upstream servers, the test started ${o.upstreams.length}`);
  site = swap(site, /^\s*listen \[::\].*$/gm, '');
  site = swap(site, /listen 80;/, `listen 127.0.0.1:${o.httpPort};`);
  site = swap(site, /listen 443 ssl/, `listen 127.0.0.1:${o.httpsPort} ssl`);
  site = swap(site, /ssl_certificate\s+\S+;/, `ssl_certificate ${o.cert};`);
  site = swap(site, /ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${o.key};`);
  site = swap(site, /proxy_cache_path \S+/, `proxy_cache_path ${path.join(o.dir, 'cache')}`);
  site = swap(site, /client_max_body_size \S+;/, `client_max_body_size ${o.maxBodyMb}m;`);
  site = swap(site, /root \/var\/www\/letsencrypt;/, `root ${path.join(o.dir, 'acme')};`);
  const temp = (name: string) => path.join(o.dir, name);
  return [
    // As root, the workers would otherwise run as nobody, who cannot enter the private temporary folder.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    `pid ${temp('nginx.pid')};`,
    `error_log ${temp('error.log')} warn;`,
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${temp('access.log')};`,
    `  client_body_temp_path ${temp('client_body')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    '  default_type application/octet-stream;',
    site,
    '}',
  ].join('\n');
}

export type RunningNginx = { child: ChildProcess; errorLog: () => string; stop: () => Promise<void> };

/** Checks the configuration with `nginx -t`, starts it in the foreground, and waits until it answers. */
export async function startNginx(nginx: string, dir: string, conf: string, httpsPort: number): Promise<RunningNginx> {
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, conf);
  fs.mkdirSync(path.join(dir, 'acme'), { recursive: true });
  const args = ['-p', dir, '-c', file, '-e', path.join(dir, 'error.log')];
  execFileSync(nginx, [...args, '-t', '-q'], { stdio: 'pipe' });
  const child = spawn(nginx, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    try {
      return `${output}${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`;
    } catch {
      return output;
    }
  };
  const stop = async () => {
    // SIGQUIT: nginx's graceful stop (open sockets are closed by the test first).
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${errorLog()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(httpsPort, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return { child, errorLog, stop };
    if (Date.now() > until) {
      await stop();
      throw new Error(`nginx did not listen on ${httpsPort}:\n${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A private temporary folder for one nginx. */
export function nginxDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-nginx-'));
}
