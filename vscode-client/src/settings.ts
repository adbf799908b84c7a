import * as os from 'os';
import * as vscode from 'vscode';

export const SECTION = 'tfscope';

/** Keys a workspace must not choose in Restricted Mode: they decide which program runs. */
export const RESTRICTED_KEYS = ['interpreter', 'importStrategy', 'path', 'args'] as const;

export type ImportStrategy = 'useBundled' | 'fromEnvironment';

/** One entry of the server's `settings` initialization option (and of workspace/configuration). */
export interface ServerSettings {
    workspace: string;
    enable: boolean;
    run: string; // onType | onSave
    // null: not set in VS Code, so [tool.tfscope] in pyproject.toml or the server default applies
    select: string[] | null;
    ignore: string[] | null;
    severity: Record<string, string> | null;
    kerasVersion: string | null;
    extendSelect: string[] | null;
    exclude: string[] | null;
    perFileIgnores: Record<string, string[]> | null;
    configuration: string | null;
    configurationPreference: string;
    showNotifications: string;
    inlayHints: boolean;
    codeLens: boolean;
    interpreter: string;
    logLevel: string;
}

/** A folder's settings: what the server gets, plus what only the launcher acts on. */
export interface FolderSettings {
    server: ServerSettings;
    importStrategy: ImportStrategy;
    // tfscope executables to run as `<path> serve` instead of the bundled server (the first that exists)
    path: string[];
    args: string[]; // extra server arguments, after `serve`
}

/** Reads a setting, taking only user-level and default values for restricted keys in Restricted Mode. */
function readSetting<T>(config: vscode.WorkspaceConfiguration, key: string, fallback: T): T {
    const restricted = (RESTRICTED_KEYS as readonly string[]).includes(key);
    if (!restricted || vscode.workspace.isTrusted) {
        return config.get<T>(key, fallback);
    }
    const inspected = config.inspect<T>(key);
    return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

/** A value the user set at any level, or null so that it does not override pyproject.toml. */
function explicitSetting<T>(config: vscode.WorkspaceConfiguration, key: string): T | null {
    const inspected = config.inspect<T>(key);
    return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue ?? null;
}

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~` in a path setting. */
export function expandPath(value: string, folder: vscode.WorkspaceFolder | undefined): string {
    const home = os.homedir();
    const expanded = value
        .replace(/\$\{workspaceFolder\}/g, folder?.uri.fsPath ?? '')
        .replace(/\$\{userHome\}/g, home)
        .replace(/\$\{env:([^}]+)\}/g, (_match, name: string) => process.env[name] ?? '');
    return expanded.startsWith('~') ? home + expanded.slice(1) : expanded;
}

/** The `configuration` setting with `${workspaceFolder}` and `~` expanded; null when not set. */
function configurationPath(value: string | null, folder: vscode.WorkspaceFolder | undefined): string | null {
    return value ? expandPath(value, folder) : null;
}

/** The settings of one folder (or of the window, when no folder is open), before interpreter lookup. */
export function readFolderSettings(folder: vscode.WorkspaceFolder | undefined): FolderSettings {
    const config = vscode.workspace.getConfiguration(SECTION, folder?.uri);
    const server: ServerSettings = {
        workspace: folder?.uri.toString() ?? '',
        enable: readSetting(config, 'enable', true),
        run: readSetting(config, 'run', 'onType'),
        select: explicitSetting<string[]>(config, 'select'),
        ignore: explicitSetting<string[]>(config, 'ignore'),
        severity: explicitSetting<Record<string, string>>(config, 'severity'),
        kerasVersion: explicitSetting<string>(config, 'kerasVersion'),
        extendSelect: explicitSetting<string[]>(config, 'extendSelect'),
        exclude: explicitSetting<string[]>(config, 'exclude'),
        perFileIgnores: explicitSetting<Record<string, string[]>>(config, 'perFileIgnores'),
        configuration: configurationPath(explicitSetting<string>(config, 'configuration'), folder),
        configurationPreference: readSetting(config, 'configurationPreference', 'editorFirst'),
        showNotifications: readSetting(config, 'showNotifications', 'onWarning'),
        inlayHints: readSetting(config, 'inlayHints', true),
        codeLens: readSetting(config, 'codeLens', false),
        interpreter: expandPath(readSetting(config, 'interpreter', ''), folder),
        logLevel: readSetting(config, 'logLevel', 'info'),
    };
    // the launcher reads it from the environment; the server has no use for it
    return {
        server,
        importStrategy: readSetting<ImportStrategy>(config, 'importStrategy', 'useBundled'),
        path: readSetting<string[]>(config, 'path', []).map((entry) => expandPath(entry, folder)),
        args: readSetting<string[]>(config, 'args', []).map((entry) => expandPath(entry, folder)),
    };
}
