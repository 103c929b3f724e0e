// A minimal VS Code client for `lockstep lsp`: the server checks CUDA and
// OpenCL files on open and save and publishes their findings as diagnostics.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('lockstep').get('path') || 'lockstep';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient('lockstep', 'lockstep', server, {
    documentSelector: [
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', language: 'cuda' },
      { scheme: 'file', language: 'opencl' },
      { scheme: 'file', pattern: '**/*.{cu,cl}' },
    ],
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
