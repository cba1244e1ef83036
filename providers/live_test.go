package providers

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// liveConfig reads the real-endpoint lane's variables:
//
//	RLM_LIVE_BASE_URL      e.g. https://api.openai.com/v1
//	RLM_LIVE_API_KEY_ENV   the NAME of the variable that holds the key
//	RLM_LIVE_CHAT_MODEL    e.g. gpt-4o-mini
//	RLM_LIVE_EMBED_MODEL   e.g. text-embedding-3-small
//
// It skips, naming exactly the missing ones, unless all are set.
func liveConfig(t *testing.T) (cfg Config, chatModel, embedModel string) {
	t.Helper()
	vars := []string{"RLM_LIVE_BASE_URL", "RLM_LIVE_API_KEY_ENV", "RLM_LIVE_CHAT_MODEL", "RLM_LIVE_EMBED_MODEL"}
	var missing []string
	vals := map[string]string{}
	for _, v := range vars {
		vals[v] = strings.TrimSpace(os.Getenv(v))
		if vals[v] == "" {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		t.Skipf("live provider lane skipped: missing %s", strings.Join(missing, ", "))
	}
	cfg = Config{Provider: "live", BaseURL: vals["RLM_LIVE_BASE_URL"], APIKeyEnv: vals["RLM_LIVE_API_KEY_ENV"], Timeout: 60 * time.Second}
	return cfg, vals["RLM_LIVE_CHAT_MODEL"], vals["RLM_LIVE_EMBED_MODEL"]
}

// TestLiveEndpoint exercises a real OpenAI-compatible endpoint: embeddings
// (batch of 3 split in 2 requests), a plain chat, a streamed chat and a
// forced tool call. It is one test so the lane's single skip says it all.
func TestLiveEndpoint(t *testing.T) {
	cfg, chatModel, embedModel := liveConfig(t)
	logger, logs := newTestLogger()
	cfg.Logger = logger
	key := os.Getenv(cfg.APIKeyEnv)
	defer func() {
		if key != "" && strings.Contains(logs.String(), key) {
			t.Error("logs contain the API key")
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	ecfg := EmbeddingConfig{Config: cfg, BatchSize: 2}
	ecfg.Model = embedModel
	em, err := NewRemoteEmbedder(ecfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := em.EmbedDetailed(ctx, []string{"parseHTTPRequest", "parse_http_request", "renderTriangleMesh"})
	if err != nil {
		t.Fatalf("embed: %v", err)
	}
	if len(res.Vectors) != 3 || res.Dimensions == 0 {
		t.Fatalf("embed result: %d vectors, %d dims", len(res.Vectors), res.Dimensions)
	}
	if testfixture.Cosine(res.Vectors[0], res.Vectors[1]) <= testfixture.Cosine(res.Vectors[0], res.Vectors[2]) {
		t.Errorf("live embeddings: similar identifiers not closer than unrelated")
	}
	t.Logf("embed: model %s, %d dims, usage %+v", res.Model, res.Dimensions, res.Usage)

	ccfg := ChatConfig{Config: cfg}
	ccfg.Model = chatModel
	c, err := NewChatClient(ccfg)
	if err != nil {
		t.Fatal(err)
	}
	req := ChatRequest{Messages: []Message{{Role: RoleUser, Content: "Reply with the single word: pong"}}, MaxTokens: 20}
	out, err := c.Complete(ctx, req)
	if err != nil {
		t.Fatalf("chat: %v", err)
	}
	t.Logf("chat: %q finish=%s usage=%+v", out.Content, out.FinishReason, out.Usage)

	var streamed strings.Builder
	sout, err := c.Stream(ctx, req, func(d StreamDelta) error { streamed.WriteString(d.Content); return nil })
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	if sout.Content != streamed.String() {
		t.Errorf("accumulated %q != deltas %q", sout.Content, streamed.String())
	}
	t.Logf("stream: %q usage=%+v", sout.Content, sout.Usage)

	tout, err := c.Complete(ctx, ChatRequest{
		Messages:   []Message{{Role: RoleUser, Content: "What is the weather in Oslo?"}},
		Tools:      []Tool{weatherTool},
		ToolChoice: "get_weather",
	})
	if err != nil {
		t.Fatalf("tool call: %v", err)
	}
	if len(tout.ToolCalls) == 0 || tout.ToolCalls[0].Name != "get_weather" {
		t.Errorf("tool call: %+v", tout)
	}
}
