import * as os from 'os';
import * as vscode from 'vscode';

export const SECTION = 'tfscope';

/** Keys a workspace must not choose in Restricted Mode: they decide which program runs. */
export const RESTRICTED_KEYS = ['interpreter', 'importStrategy'] as const;

export type ImportStrategy = 'useBundled' | 'fromEnvironment';

/** One entry of the server's `settings` initialization option (and of workspace/configuration). */
export interface ServerSettings {
    workspace: string;
    enable: boolean;
    select: string[];
    ignore: string[];
    severity: Record<string, string>;
    kerasVersion: string;
    interpreter: string;
    importStrategy: ImportStrategy;
    logLevel: string;
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

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~` in a path setting. */
export function expandPath(value: string, folder: vscode.WorkspaceFolder | undefined): string {
    const home = os.homedir();
    const expanded = value
        .replace(/\$\{workspaceFolder\}/g, folder?.uri.fsPath ?? '')
        .replace(/\$\{userHome\}/g, home)
        .replace(/\$\{env:([^}]+)\}/g, (_match, name: string) => process.env[name] ?? '');
    return expanded.startsWith('~') ? home + expanded.slice(1) : expanded;
}

/** The settings of one folder (or of the window, when no folder is open), before interpreter lookup. */
export function readServerSettings(folder: vscode.WorkspaceFolder | undefined): ServerSettings {
    const config = vscode.workspace.getConfiguration(SECTION, folder?.uri);
    return {
        workspace: folder?.uri.toString() ?? '',
        enable: readSetting(config, 'enable', true),
        select: readSetting<string[]>(config, 'select', []),
        ignore: readSetting<string[]>(config, 'ignore', []),
        severity: readSetting<Record<string, string>>(config, 'severity', {}),
        kerasVersion: readSetting(config, 'kerasVersion', 'auto'),
        interpreter: expandPath(readSetting(config, 'interpreter', ''), folder),
        importStrategy: readSetting<ImportStrategy>(config, 'importStrategy', 'useBundled'),
        logLevel: readSetting(config, 'logLevel', 'info'),
    };
}
