import { spawn, type ChildProcess } from 'node:child_process';
import { validateJSONRPCMessage, type JSONRPCMessage, type MCPTransport } from '@ai-sdk/mcp';
import { holdProcessGroup, type HeldProcessGroup } from '../tools/held-process-groups.js';
import { terminateProcessGroup } from '../tools/process-group.js';

/** Variables a stdio server inherits from June's environment; everything else comes from `env`. */
const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;

/** Options of {@link StdioServerTransport}. */
export interface StdioServerTransportOptions {
  command: string;
  args?: readonly string[];
  /** Added to the inherited HOME, LOGNAME, PATH, SHELL, TERM and USER (and wins over them). */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the server's stderr goes. @default "ignore" */
  stderr?: 'ignore' | 'inherit';
  /** Milliseconds between SIGTERM and SIGKILL when closing. @default 2000 */
  graceMs?: number;
}

/**
 * An MCP transport that starts a server as a child process in a process group of its own and
 * speaks newline-delimited JSON-RPC over its stdin and stdout. `close()` ends the whole group
 * (SIGTERM, then SIGKILL after `graceMs`) and resolves only once it is gone, so nothing the
 * server started outlives the run; until then the group is held (`holdProcessGroup`), so it
 * does not outlive June's process either (an exit kills it, a watchdog ends it after a
 * `kill -9`). Internal to `defineMCPServer`.
 *
 * @example
 * ```ts
 * const transport = new StdioServerTransport({ command: 'node', args: ['server.js'] });
 * const client = await createMCPClient({ transport });
 * // ...
 * await client.close(); // the server process has exited
 * ```
 */
export class StdioServerTransport implements MCPTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the process ended, once it has: `code 1`, `signal SIGTERM`. */
  exitDescription: string | undefined;
  private child: ChildProcess | undefined;
  /** The server's process group while June answers for it (see holdProcessGroup). */
  private group: HeldProcessGroup | undefined;
  private exited: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private buffer = '';
  private closeReported = false;

  constructor(private readonly options: StdioServerTransportOptions) {}

  async start(): Promise<void> {
    if (this.child) throw new Error('the stdio transport is already started');
    const group = holdProcessGroup(this.graceMs);
    let child: ChildProcess;
    try {
      child = spawn(this.options.command, [...(this.options.args ?? [])], {
        env: serverEnvironment(this.options.env),
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', this.options.stderr ?? 'ignore'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      group.release();
      throw error;
    }
    this.child = child;
    if (child.pid === undefined) group.release();
    else {
      group.attach(child.pid);
      this.group = group;
    }
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitDescription = signal ? `signal ${signal}` : `code ${code}`;
        resolve();
      });
      child.once('error', () => resolve());
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.once('close', () => this.reportClose());
    child.on('error', (error) => this.onerror?.(error));
    child.stdin!.on('error', (error) => this.onerror?.(error));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.receive(chunk));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closing || this.exitDescription)
      throw new Error('the MCP server is not running');
    if (!stdin.write(`${JSON.stringify(message)}\n`))
      await new Promise((resolve) => stdin.once('drain', resolve));
  }

  /** Ends the server's process group and waits until it is gone. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.terminate();
    return this.closing;
  }

  private get graceMs(): number {
    return this.options.graceMs ?? 2000;
  }

  private async terminate(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) return;
    child.stdin?.end();
    if (process.platform === 'win32') child.kill();
    else await terminateProcessGroup(child.pid, this.graceMs);
    await this.exited;
    this.group?.release();
    this.reportClose();
  }

  private reportClose(): void {
    if (this.closeReported) return;
    this.closeReported = true;
    this.onclose?.();
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      if (line.trim() === '') continue;
      try {
        this.onmessage?.(validateJSONRPCMessage(JSON.parse(line)));
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

function serverEnvironment(custom: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return { ...env, ...custom };
}
