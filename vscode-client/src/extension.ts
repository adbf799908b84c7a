import * as vscode from 'vscode';
import { onDidChangePythonEnvironment } from './interpreter';
import { ServerManager } from './server';
import { SECTION } from './settings';

/** The server's own command: every safe fix of a file, or of the whole notebook holding a cell. */
const SERVER_FIX_ALL_COMMAND = 'tfscope.applyFixAll';
/** A scope block's code lens: the objects it creates and takes in, as plain LSP locations. */
const SHOW_OBJECTS_COMMAND = 'tfscope.showObjects';

interface LspPosition {
    line: number;
    character: number;
}

interface LspLocation {
    uri: string;
    range: { start: LspPosition; end: LspPosition };
}

function showObjects(uri: string, position: LspPosition, locations: LspLocation[]): Thenable<unknown> {
    const toPosition = (at: LspPosition) => new vscode.Position(at.line, at.character);
    const shown = locations.map(
        (location) =>
            new vscode.Location(
                vscode.Uri.parse(location.uri),
                new vscode.Range(toPosition(location.range.start), toPosition(location.range.end)),
            ),
    );
    return vscode.commands.executeCommand('editor.action.showReferences', vscode.Uri.parse(uri), toPosition(position), shown);
}

let manager: ServerManager | undefined;

async function fixAll(): Promise<void> {
    const document = vscode.window.activeNotebookEditor?.notebook ?? vscode.window.activeTextEditor?.document;
    if (!document) {
        void vscode.window.showInformationMessage('tfscope: open a Python file or notebook to fix.');
        return;
    }
    if (!manager?.running) {
        void vscode.window.showWarningMessage('tfscope: the server is not running; see tfscope: Show Logs.');
        return;
    }
    await vscode.commands.executeCommand(SERVER_FIX_ALL_COMMAND, document.uri.toString());
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const log = vscode.window.createOutputChannel('tfscope', { log: true });
    manager = new ServerManager(context.extensionPath, log);
    const restart = () => manager?.restart();
    context.subscriptions.push(
        log,
        manager,
        vscode.commands.registerCommand('tfscope.restart', restart),
        vscode.commands.registerCommand('tfscope.fixAll', fixAll),
        vscode.commands.registerCommand('tfscope.showLogs', () => log.show()),
        vscode.commands.registerCommand(SHOW_OBJECTS_COMMAND, showObjects),
        vscode.commands.registerCommand('tfscope.showServerInfo', () => {
            const info = manager?.serverInfo() ?? 'tfscope: not started';
            log.info(info);
            log.show();
            const version = info.split('\n')[0];
            void vscode.window.showInformationMessage(version, 'Show Logs').then((choice) => choice && log.show());
        }),
        vscode.workspace.onDidChangeConfiguration((event) => {
            if (event.affectsConfiguration(SECTION)) {
                void restart();
            }
        }),
        vscode.workspace.onDidChangeWorkspaceFolders(() => void restart()),
        vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
    );
    const pythonEnvironmentWatcher = await onDidChangePythonEnvironment(() => void restart());
    if (pythonEnvironmentWatcher) {
        context.subscriptions.push(pythonEnvironmentWatcher);
    }
    await restart();
}

export async function deactivate(): Promise<void> {
    await manager?.dispose();
    manager = undefined;
}
