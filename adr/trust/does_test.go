package trust

import "testing"

func TestValueDoes(t *testing.T) {
	for _, c := range []struct {
		v    Value
		want string
	}{
		{Value{Setting: DrafterCommand, Value: "./draft.sh"}, `run "./draft.sh" with sh -c in /repo`},
		{Value{Setting: OpenAIBaseURL, Value: "https://llm.example/v1/"}, `send the evidence to "https://llm.example/v1/chat/completions"`},
		{Value{Setting: OpenAIKeyEnv, Value: "LLM_KEY"}, "send $LLM_KEY as the Bearer token"},
		{Value{Setting: OpenAIKeyEnv, Value: "BAD NAME"}, `send $"BAD NAME" as the Bearer token`},
		{Value{Setting: EmbeddingsBaseURL, Value: "https://emb.example/v1"}, `send tasks and records' text to "` + EmbeddingsURL("https://emb.example/v1") + `" to be embedded`},
		{Value{Setting: EmbeddingsKeyEnv, Value: "EMB_KEY"}, "send $EMB_KEY as the embeddings endpoint's Bearer token"},
		{Value{Setting: Setting{Key: "other"}, Value: "x"}, `use "x"`},
	} {
		if got := c.v.Does("/repo"); got != c.want {
			t.Errorf("%s: Does = %q, want %q", c.v.Key, got, c.want)
		}
	}
	if got := ChatURL("https://llm.example/v1"); got != "https://llm.example/v1/chat/completions" {
		t.Errorf("ChatURL = %q", got)
	}
}
