// git-adr read guard for OpenCode: written by `git adr guard install --agent opencode`,
// removed by `git adr guard uninstall --agent opencode` (see docs/guard.md).
// Every tool call is judged by `git adr guard --hook opencode` before it runs: a refused
// call throws, and OpenCode gives the model the reason instead of the tool's output.
// Guidance for a call that runs is appended to its output. If git-adr cannot be run the
// call is refused too: the guard never lets a call through because it failed.
import { spawnSync } from "node:child_process"

export const GitAdrGuard = async ({ directory }) => {
  const notes = new Map()
  return {
    "tool.execute.before": async (input, output) => {
      const call = { tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: output.args ?? {}, directory }
      const r = spawnSync("git", ["adr", "guard", "--hook", "opencode"], {
        cwd: directory, input: JSON.stringify(call), encoding: "utf8", timeout: 30000, maxBuffer: 1 << 20,
      })
      let answer = null
      try {
        answer = JSON.parse(r.stdout)
      } catch {}
      if (r.error || r.status !== 0 || !answer || typeof answer.decision !== "string") {
        const why = r.error ? r.error.message : `exit ${r.status}: ${String(r.stderr || r.stdout || "").trim().slice(0, 500)}`
        throw new Error(`git-adr guard could not judge this call (${why}), so it is refused; a person can remove the guard with git adr guard uninstall --agent opencode`)
      }
      if (answer.decision === "deny") throw new Error(answer.message || "git-adr guard refused this call")
      if (answer.message) notes.set(input.callID, answer.message)
    },
    "tool.execute.after": async (input, output) => {
      const note = notes.get(input.callID)
      if (!note) return
      notes.delete(input.callID)
      if (typeof output.output === "string") output.output += "\n\n" + note
      else if (Array.isArray(output.content)) output.content.push({ type: "text", text: note })
    },
  }
}
