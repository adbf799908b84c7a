import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
    ConfigurationParams,
    DocumentSelector,
    LanguageClient,
    LanguageClientOptions,
    RevealOutputChannelOn,
    ServerOptions,
    State,
} from 'vscode-languageclient/node';
import { findInterpreter, Interpreter } from './interpreter';
import { ImportStrategy, readFolderSettings, SECTION, ServerSettings } from './settings';

const SERVER_ID = 'tfscope';
const SERVER_NAME = 'tfscope';

export const DOCUMENT_SELECTOR: DocumentSelector = [
    { scheme: 'file', language: 'python' },
    { scheme: 'untitled', language: 'python' },
    { notebook: 'jupyter-notebook', language: 'python' },
    { notebook: 'interactive', language: 'python' },
];

interface FolderSetup {
    settings: ServerSettings;
    importStrategy: ImportStrategy;
    interpreter: Interpreter | undefined;
    executable: string | undefined; // tfscope.path: a tfscope to run instead of the bundled server
    args: string[]; // tfscope.args: after `serve`
}

function firstExecutable(candidates: string[]): string | undefined {
    return candidates.find((candidate) => {
        try {
            fs.accessSync(candidate, fs.constants.X_OK);
            return fs.statSync(candidate).isFile();
        } catch {
            return false;
        }
    });
}

async function setupOf(folder: vscode.WorkspaceFolder | undefined): Promise<FolderSetup> {
    const { server, importStrategy, path: executables, args } = readFolderSettings(folder);
    const interpreter = await findInterpreter(server.interpreter, folder?.uri);
    // jedi resolves imports in the folder's own interpreter, even if the server runs on another
    const settings = { ...server, interpreter: interpreter?.path ?? '' };
    return { settings, importStrategy, interpreter, executable: firstExecutable(executables), args };
}

/** The window's settings (user and workspace level) first, then each folder's. */
async function collectSetups(): Promise<FolderSetup[]> {
    return Promise.all([undefined, ...(vscode.workspace.workspaceFolders ?? [])].map(setupOf));
}

/** A folder's settings for a scope uri; the window's for no scope or one outside every folder. */
function settingsFor(setups: FolderSetup[], scopeUri: string | undefined): ServerSettings {
    const folder = scopeUri ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(scopeUri)) : undefined;
    const match = folder && setups.find((setup) => setup.settings.workspace === folder.uri.toString());
    return (match || setups[0]).settings;
}

/** Owns the one language client: starts, restarts and reports it in the language status item. */
export class ServerManager implements vscode.Disposable {
    private client: LanguageClient | undefined;
    private pending: Promise<void> = Promise.resolve();
    private restartQueued = false;
    private readonly status: vscode.LanguageStatusItem;
    private started: { interpreter: Interpreter; importStrategy: ImportStrategy; setups: FolderSetup[] } | undefined;

    constructor(
        private readonly extensionPath: string,
        readonly log: vscode.LogOutputChannel,
    ) {
        this.status = vscode.languages.createLanguageStatusItem('tfscope.status', DOCUMENT_SELECTOR);
        this.status.name = 'tfscope';
        this.status.command = { title: 'Show Logs', command: 'tfscope.showLogs' };
    }

    get running(): boolean {
        return this.client?.state === State.Running;
    }

    /** What *tfscope: Show Server Info* prints: the server's name and version, how it runs, the settings sent. */
    serverInfo(): string {
        if (!this.client || !this.started) {
            return 'tfscope: the server is not running (see tfscope: Show Logs).';
        }
        const info = this.client.initializeResult?.serverInfo;
        const { interpreter, importStrategy, setups } = this.started;
        const folders = setups.map((setup) => `  ${setup.settings.workspace || '(window)'}: ${JSON.stringify(setup.settings)}`);
        return [
            `server: ${info?.name ?? 'tfscope'} ${info?.version ?? '(version unknown)'} (${this.running ? 'running' : 'not running'})`,
            `interpreter: ${interpreter.path} (from ${interpreter.origin})`,
            `import strategy: ${importStrategy}`,
            'settings sent to the server:',
            ...folders,
        ].join('\n');
    }

    /**
     * Stops any running server and starts a fresh one. Calls never interleave, and a burst of
     * them (typing in the settings editor) coalesces into one restart that reads the latest settings.
     */
    restart(): Promise<void> {
        if (this.restartQueued) {
            return this.pending;
        }
        this.restartQueued = true;
        this.pending = this.pending
            .then(() => {
                this.restartQueued = false;
                return this.stop();
            })
            .then(() => this.start())
            .catch((error) => this.log.error(`restarting the server: ${String(error)}`));
        return this.pending;
    }

    private async stop(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        if (client) {
            try {
                await client.stop();
            } catch (error) {
                this.log.warn(`stopping the server: ${String(error)}`);
            }
            await client.dispose();
        }
    }

    private showStatus(text: string, detail: string, severity: vscode.LanguageStatusSeverity, busy = false): void {
        this.status.text = text;
        this.status.detail = detail;
        this.status.severity = severity;
        this.status.busy = busy;
    }

    private async start(): Promise<void> {
        const setups = await collectSetups();
        // one server serves every folder: it runs on the first folder's interpreter
        const { interpreter, importStrategy, executable, args } = setups[Math.min(1, setups.length - 1)];
        if (!setups.some((setup) => setup.settings.enable)) {
            this.log.info('tfscope.enable is false in every folder: the server is not started');
            this.showStatus('tfscope: disabled', 'tfscope.enable is false', vscode.LanguageStatusSeverity.Information);
            return;
        }
        if (executable) {
            this.log.info(`server: ${[executable, 'serve', ...args].join(' ')} (from tfscope.path)`);
            this.showStatus('tfscope', `starting ${executable}`, vscode.LanguageStatusSeverity.Information, true);
            const client = this.createClient({ command: executable, args: ['serve', ...args] }, importStrategy, setups);
            this.client = client;
            this.started = { interpreter: { path: executable, origin: 'tfscope.path setting' }, importStrategy, setups };
            await this.startClient(client, executable);
            return;
        }
        if (!interpreter) {
            const message = 'tfscope: no Python interpreter found. Set tfscope.interpreter or put python3 on PATH.';
            this.log.error(message);
            this.showStatus('tfscope: no Python', message, vscode.LanguageStatusSeverity.Error);
            void vscode.window.showErrorMessage(message);
            return;
        }
        if (!vscode.workspace.isTrusted) {
            this.log.info('Restricted Mode: workspace values of tfscope.interpreter and tfscope.importStrategy are ignored');
        }
        this.log.info(`interpreter: ${interpreter.path} (from ${interpreter.origin}); import strategy: ${importStrategy}`);
        if (args.length) {
            this.log.info(`server arguments (tfscope.args): ${args.join(' ')}`);
        }
        this.showStatus('tfscope', `starting with ${interpreter.path}`, vscode.LanguageStatusSeverity.Information, true);

        const launcher = path.join(this.extensionPath, 'vscode-client', 'python', 'launch_server.py');
        const client = this.createClient({ command: interpreter.path, args: [launcher, ...args] }, importStrategy, setups);
        this.client = client;
        this.started = { interpreter, importStrategy, setups };
        await this.startClient(client, interpreter.path);
    }

    private async startClient(client: LanguageClient, program: string): Promise<void> {
        try {
            await client.start();
            this.showStatus('tfscope', `running on ${program}`, vscode.LanguageStatusSeverity.Information);
        } catch (error) {
            this.log.error(`the server failed to start: ${String(error)}`);
            this.showStatus('tfscope: error', `failed to start on ${program}; see the logs`, vscode.LanguageStatusSeverity.Error);
        }
    }

    private createClient(
        program: { command: string; args: string[] },
        importStrategy: ImportStrategy,
        setups: FolderSetup[],
    ): LanguageClient {
        const serverOptions: ServerOptions = {
            command: program.command,
            args: program.args,
            // no `transport`: stdio without the `--stdio` argument it would add, which `serve` does not take
            options: {
                // never the workspace: nothing there may end up on the server's sys.path
                cwd: this.extensionPath,
                env: { ...process.env, PYTHONUTF8: '1', TFSCOPE_IMPORT_STRATEGY: importStrategy },
            },
        };
        const clientOptions: LanguageClientOptions = {
            documentSelector: DOCUMENT_SELECTOR,
            outputChannel: this.log,
            traceOutputChannel: this.log,
            revealOutputChannelOn: RevealOutputChannelOn.Never,
            initializationOptions: {
                settings: setups.slice(1).map((setup) => setup.settings),
                globalSettings: setups[0].settings,
            },
            middleware: {
                workspace: {
                    // answer with trust-filtered settings read now, never the raw workspace configuration
                    configuration: async (params: ConfigurationParams) => {
                        const current = await collectSetups();
                        return params.items.map((item) =>
                            item.section === SECTION
                                ? settingsFor(current, item.scopeUri)
                                : vscode.workspace.getConfiguration(item.section, item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined),
                        );
                    },
                },
            },
        };
        const client = new LanguageClient(SERVER_ID, SERVER_NAME, serverOptions, clientOptions);
        client.onDidChangeState((event) => {
            if (event.newState === State.Stopped && this.client === client) {
                this.showStatus('tfscope: stopped', 'the server stopped; see the logs', vscode.LanguageStatusSeverity.Error);
            }
        });
        return client;
    }

    async dispose(): Promise<void> {
        await this.pending;
        await this.stop();
        this.status.dispose();
    }
}
