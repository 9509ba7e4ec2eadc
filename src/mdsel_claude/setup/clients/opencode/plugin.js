// mdsel-claude for OpenCode: after a `read` or `bash` tool call, `mdsel-claude hook` says
// whether it showed a large Markdown file, and its answer is added to the output the model
// sees (or, in outline mode, stands in for a whole-file read). Every decision is the hook's;
// this file only passes the call on. Written by `mdsel-claude install --client opencode`,
// removed by `mdsel-claude uninstall --client opencode` while it is unchanged.

const COMMAND = ["mdsel-claude", "hook", "--client", "opencode"];
const TOOLS = ["read", "bash"];
const TIMEOUT_MS = 5000;

async function ask(payload) {
  const child = Bun.spawn(COMMAND, {
    stdin: new TextEncoder().encode(payload),
    stdout: "pipe",
    stderr: "ignore",
  });
  const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
  try {
    const text = await new Response(child.stdout).text();
    return text ? JSON.parse(text) : null;
  } finally {
    clearTimeout(timer);
  }
}

// OpenCode calls every export of a plugin file as a plugin: this is the only one.
export const MdselClaude = async ({ directory }) => ({
  "tool.execute.after": async (input, output) => {
    try {
      if (!TOOLS.includes(input.tool) || typeof output.output !== "string") return;
      const answer = await ask(JSON.stringify({ tool: input.tool, args: input.args, directory }));
      if (typeof answer?.replace === "string") output.output = answer.replace;
      else if (typeof answer?.append === "string") output.output += answer.append;
    } catch {
      // No mdsel-claude on PATH, a timeout, an answer that is not JSON: the output stays.
    }
  },
});
