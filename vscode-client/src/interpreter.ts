import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

export type InterpreterOrigin = 'tfscope.interpreter setting' | 'tfscope.path setting' | 'Python extension' | 'PATH';

export interface Interpreter {
    path: string;
    origin: InterpreterOrigin;
}

/** The slice of the ms-python.python extension API that tfscope uses. */
interface PythonExtensionApi {
    environments: {
        getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
        resolveEnvironment(environment: { path: string }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
        onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
    };
}

const PYTHON_EXTENSION_ID = 'ms-python.python';
const PATH_CANDIDATES = ['python3', 'python'];

async function pythonExtensionApi(): Promise<PythonExtensionApi | undefined> {
    const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
    if (!extension) {
        return undefined;
    }
    const api = extension.isActive ? extension.exports : await extension.activate();
    return api?.environments ? api : undefined;
}

/** Fires when the Python extension's selected environment changes (never fires without it). */
export async function onDidChangePythonEnvironment(listener: () => void): Promise<vscode.Disposable | undefined> {
    const api = await pythonExtensionApi();
    return api?.environments.onDidChangeActiveEnvironmentPath(listener);
}

async function fromPythonExtension(resource: vscode.Uri | undefined): Promise<string | undefined> {
    const api = await pythonExtensionApi();
    if (!api) {
        return undefined;
    }
    const environment = await api.environments.resolveEnvironment(api.environments.getActiveEnvironmentPath(resource));
    return environment?.executable.uri?.fsPath;
}

function isExecutable(file: string): boolean {
    try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
    } catch {
        return false;
    }
}

function fromPath(): string | undefined {
    const directories = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
    const suffixes = process.platform === 'win32' ? ['.exe'] : [''];
    for (const name of PATH_CANDIDATES) {
        for (const directory of directories) {
            for (const suffix of suffixes) {
                const candidate = path.join(directory, name + suffix);
                if (isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
    }
    return undefined;
}

/**
 * The interpreter that runs the server, in order: the tfscope.interpreter setting (already
 * trust-filtered), the Python extension's selected environment, python3/python on PATH.
 * In Restricted Mode the Python extension is skipped: it may have picked the workspace's own venv.
 */
export async function findInterpreter(configured: string, resource: vscode.Uri | undefined): Promise<Interpreter | undefined> {
    if (configured) {
        return { path: configured, origin: 'tfscope.interpreter setting' };
    }
    if (vscode.workspace.isTrusted) {
        const selected = await fromPythonExtension(resource);
        if (selected) {
            return { path: selected, origin: 'Python extension' };
        }
    }
    const onPath = fromPath();
    return onPath ? { path: onPath, origin: 'PATH' } : undefined;
}
