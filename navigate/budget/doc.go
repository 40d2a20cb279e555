// Package budget plans what of an agent transcript goes into the next model
// request when the whole transcript would exceed a token budget: prompt-
// budget policy version 3 with keep-latest-read. It is a library without
// I/O: [Decode] reads a transcript from bytes, [NewPlan] decides, and
// [Apply] renders the outbound request; the transcript itself is never
// changed.
//
// # Transcripts
//
// Two request formats are read, as a whole request object (with
// "messages"), a bare array of messages, or JSON Lines (one message, or
// {"message": {...}}, per line):
//
//   - OpenAI chat: roles system, developer, user, assistant and tool;
//     assistant "tool_calls" answered by "tool" messages with their
//     "tool_call_id" right after the call.
//   - Anthropic messages: roles user and assistant; assistant "tool_use"
//     blocks answered by "tool_result" blocks in the next user message.
//
// A history that is not a valid protocol exchange (an unanswered call, a
// result without its call, a repeated ID, arguments that are not a JSON
// object, an unknown role) is rejected before anything is planned.
//
// # Policy v3
//
// An exchange starts at a user instruction (a user message that carries no
// tool results). When the request exceeds the budget, the old complete
// tool groups of the newest exchange (an assistant message's calls and all
// their results) are replaced, oldest first, by deterministic labelled
// excerpts: the tool names, bounded argument fields and bounded result
// excerpts, error and denial text included, marked as quoted history, not
// calls to make or claims of success. Both sides of a compacted pair are
// removed together; retained calls keep their original arguments and IDs
// byte for byte. The latest two tool groups are never compacted. When the
// excerpts are not enough, older exchanges are trimmed whole, oldest first
// (system and developer messages are kept); when even that is not enough
// the plan fails and says why.
//
// # Keep-latest-read
//
// The newest successful read of each file path (tools named in
// [Options.ReadTools]) stays inline when its result is within
// [Options.ReadCap]: the group that holds it is not compacted, so the model
// does not read the file again to confirm it. Older reads of the same path
// may be excerpted, and so may a read larger than the cap.
//
// # Tokens
//
// Sizes are counted with the OpenAI o200k_base encoding, part by part (the
// request without its messages, then each message): an estimate for other
// models, for which no client-side tokenizer exists.
package budget
