// Drives JupyterLab (with jupyterlab-lsp) in Chromium through one notebook and writes what it saw
// as JSON. Usage: node drive.mjs <scenario.json>. The pytest side prepares the notebook and asserts.
// scenario: {nodeModules, chromium, url (of the notebook), result, screenshotDir,
//            edits: [{cell (index among all cells), text, expect: "marker" | "none"}]}
// observed: {steps, markersBefore, afterEdits: [{markers, cellText, published}], lspStatus (per server)}
// A marker is {cell, line (1-based, in the cell), text, classes}; `published` is what the server
// published for the edited text: [{code, line}] in the notebook's concatenated document.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const scenario = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { chromium } = createRequire(join(scenario.nodeModules, 'noop.js'))('playwright-core');

const MARKER_TIMEOUT = 90_000; // JupyterLab, the kernel, the server and a first analysis, on 2 busy cores
const UI_TIMEOUT = 30_000;
const CELL = '.jp-Notebook .jp-Cell';
const MARKER = '.cm-lintRange';
const observed = { steps: [], afterEdits: [] };
// LSP traffic on jupyter-lsp's WebSocket for the tfscope session
const sentVersions = [];
const publishes = [];

function step(name) {
    observed.steps.push(name);
    console.log(`[drive] ${name}`);
}

function watchLanguageServerTraffic(page) {
    page.on('websocket', (socket) => {
        if (!socket.url().includes('/lsp/ws/tfscope')) {
            return;
        }
        socket.on('framesent', ({ payload }) => {
            const message = JSON.parse(payload);
            if (message.method === 'textDocument/didChange' || message.method === 'textDocument/didOpen') {
                sentVersions.push(message.params.textDocument.version);
            }
        });
        socket.on('framereceived', ({ payload }) => {
            const message = JSON.parse(payload);
            if (message.method === 'textDocument/publishDiagnostics') {
                publishes.push(message.params);
            }
        });
    });
}

/** Every lint mark in every cell editor, tied to its cell and to its line inside that cell. */
async function markers(page) {
    return page.$$eval(CELL, (cells, marker) =>
        cells.flatMap((cell, index) => {
            const lines = [...cell.querySelectorAll('.cm-content > .cm-line')];
            return [...cell.querySelectorAll(marker)].map((mark) => ({
                cell: index,
                line: lines.indexOf(mark.closest('.cm-line')) + 1,
                text: mark.textContent,
                classes: mark.className,
            }));
        }), MARKER);
}

async function cellText(page, index) {
    const lines = await page.locator(CELL).nth(index).locator('.cm-content > .cm-line').allTextContents();
    return lines.join('\n').replace(/\u00a0/g, ' ');
}

/** Replaces the cell's whole text as one input (no auto-indent, no bracket closing). */
async function replaceCellText(page, index, text) {
    const content = page.locator(CELL).nth(index).locator('.cm-content');
    await content.click();
    await page.locator(CELL).nth(index).locator('.cm-editor.cm-focused').waitFor({ timeout: UI_TIMEOUT });
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
    await page.waitForFunction(
        ([selector, cell, expected]) => {
            const lines = [...document.querySelectorAll(selector)[cell].querySelectorAll('.cm-content > .cm-line')];
            return lines.map((line) => line.textContent).join('\n').replace(/\u00a0/g, ' ') === expected;
        },
        [CELL, index, text],
        { timeout: UI_TIMEOUT },
    );
}

/** Waits for the server's diagnostics of the latest text the client sent. */
async function publishedForLatestVersion(page) {
    const deadline = Date.now() + MARKER_TIMEOUT;
    for (;;) {
        const latest = sentVersions[sentVersions.length - 1];
        const answer = publishes.findLast((params) => params.version === latest);
        if (answer) {
            return answer.diagnostics
                .filter((diagnostic) => diagnostic.source === 'tfscope')
                .map((diagnostic) => ({ code: diagnostic.code, line: diagnostic.range.start.line }));
        }
        if (Date.now() > deadline) {
            throw new Error(`no diagnostics published for version ${latest} (published: ${publishes.map((p) => p.version)})`);
        }
        await page.waitForTimeout(100);
    }
}

async function run(page) {
    watchLanguageServerTraffic(page);
    step('open the notebook');
    await page.goto(scenario.url);
    await page.locator(CELL).first().waitFor({ timeout: 60_000 });

    step('wait for the marker');
    await page.locator(`${CELL} ${MARKER}`).first().waitFor({ timeout: MARKER_TIMEOUT });
    observed.markersBefore = await markers(page);

    for (const edit of scenario.edits) {
        step(`edit cell ${edit.cell}, expecting ${edit.expect}`);
        await replaceCellText(page, edit.cell, edit.text);
        const published = await publishedForLatestVersion(page);
        // the editor maps old marks through the edit; wait for what the server said about the new text
        if (edit.expect === 'none') {
            await page.waitForFunction((selector) => !document.querySelector(selector), `${CELL} ${MARKER}`, { timeout: UI_TIMEOUT });
        } else {
            await page.locator(CELL).nth(edit.cell).locator(MARKER).first().waitFor({ timeout: UI_TIMEOUT });
        }
        observed.afterEdits.push({ markers: await markers(page), cellText: await cellText(page, edit.cell), published });
    }
    const status = await page.evaluate(async () => (await fetch('/lsp/status')).json());
    observed.lspStatus = Object.fromEntries(Object.entries(status.sessions).map(([name, session]) => [name, session.status]));
}

const browser = await chromium.launch({
    executablePath: scenario.chromium,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
let status = 0;
try {
    await run(page);
} catch (error) {
    status = 1;
    observed.error = String(error?.stack ?? error);
    observed.screenshot = join(scenario.screenshotDir, 'jupyterlab-failure.png');
    await page.screenshot({ path: observed.screenshot }).catch(() => {});
} finally {
    observed.publishedVersions = publishes.map((params) => params.version);
    writeFileSync(scenario.result, JSON.stringify(observed, null, 2));
    await browser.close();
}
process.exit(status);
