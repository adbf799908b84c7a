// Stands in for ms-python.python: its selected environment is the folder's tools/python-wrapper
// when that exists (as if the user picked it), else none.
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const SELECTED = path.join('tools', 'python-wrapper');

exports.activate = () => {
    const changed = new vscode.EventEmitter();
    const selectedIn = (resource) => {
        const folder = (resource && vscode.workspace.getWorkspaceFolder(resource)) || vscode.workspace.workspaceFolders?.[0];
        const candidate = folder && path.join(folder.uri.fsPath, SELECTED);
        return candidate && fs.existsSync(candidate) ? candidate : undefined;
    };
    return {
        environments: {
            getActiveEnvironmentPath: (resource) => ({ id: selectedIn(resource) ?? 'none', path: selectedIn(resource) ?? 'none' }),
            resolveEnvironment: async (environment) =>
                environment.path === 'none' ? undefined : { executable: { uri: vscode.Uri.file(environment.path) } },
            onDidChangeActiveEnvironmentPath: changed.event,
        },
    };
};
