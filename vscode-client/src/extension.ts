import * as vscode from 'vscode';
import { onDidChangePythonEnvironment } from './interpreter';
import { SERVER_ID, ServerManager } from './server';
import { SECTION } from './settings';

/** Code action kind of the server's fix-all (ruff's convention: `source.fixAll.<tool>`). */
const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append(SERVER_ID);

let manager: ServerManager | undefined;

/** Applies the server's safe fixes to the active Python file or notebook cell. */
async function fixAll(): Promise<void> {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || document.languageId !== 'python') {
        void vscode.window.showInformationMessage('tfscope: open a Python file or notebook cell to fix.');
        return;
    }
    const wholeDocument = new vscode.Range(0, 0, document.lineCount, 0);
    const actions =
        (await vscode.commands.executeCommand<vscode.CodeAction[]>(
            'vscode.executeCodeActionProvider',
            document.uri,
            wholeDocument,
            FIX_ALL_KIND.value,
        )) ?? [];
    const ours = actions.filter((action) => action.kind && FIX_ALL_KIND.contains(action.kind));
    if (ours.length === 0) {
        void vscode.window.setStatusBarMessage('tfscope: nothing to fix', 3000);
        return;
    }
    for (const action of ours) {
        if (action.edit) {
            await vscode.workspace.applyEdit(action.edit);
        }
        if (action.command) {
            await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
        }
    }
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
