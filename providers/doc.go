// Package providers holds the clients for OpenAI-compatible chat and
// embedding endpoints (over github.com/openai/openai-go/v3) and the local,
// deterministic embedder that is the offline default. It knows nothing of
// Prolog; it imports package retrieval only for the one Embedder interface,
// which [RemoteEmbedder] and [LocalEmbedder] satisfy directly (Embed returns
// the vectors; EmbedDetailed also returns usage and the reported model).
//
// # Configuration
//
// Chat ([ChatConfig], [NewChatClient]) and embeddings ([EmbeddingConfig],
// [NewRemoteEmbedder]) are configured independently, each with a base URL,
// model, the name of the environment variable holding the key (read at call
// time, every call), a per-attempt timeout and a retry policy. Nothing is
// taken from OPENAI_* environment variables: the openai-go services are
// built without its DefaultClientOptions, so no OpenAI-Organization or
// OpenAI-Project header, env key or env base URL reaches the server.
//
// # Shapes and units
//
//   - Vectors are []float32, one per input text, in input order; all of one
//     [Embeddings] share Dimensions (number of components).
//   - Text caps are in UTF-8 bytes (MaxTextBytes, default 32 KiB) and texts
//     per call (MaxTexts, default 4096); remote batches hold BatchSize texts
//     (default 64). An empty list or empty text is a KindConfiguration
//     error raised before any network call.
//   - Timeouts bound one HTTP attempt (for a stream: the whole stream).
//     Retry delays honour Retry-After-Ms / Retry-After up to
//     RetryPolicy.MaxRetryAfter.
//   - [Usage] is in tokens as reported by the server.
//
// # Errors
//
// Every failure is an [*Error] with a [Kind]: configuration,
// missing_credential, transport, timeout, canceled, http (with Status),
// provider, invalid_response, invalid_stream. Use errors.As, or [IsKind];
// timeouts and cancellations also satisfy errors.Is with
// context.DeadlineExceeded / context.Canceled. No error message or log
// record contains the API key: provider and transport text is redacted.
// Nor does an answer: a server that echoes the key (in the content, a
// refusal, a tool call's id, name or arguments, whole or split across
// streamed deltas) gets it replaced by [REDACTED].
//
// # Asynchrony
//
// Everything that waits takes a context first. [Future] (from [Go],
// [EmbedAsync], [ChatClient.CompleteAsync]) runs work in the background with
// Wait(ctx) and Cancel().
//
// # Logging
//
// Config.Logger (a *slog.Logger, default discard) receives debug records for
// successful attempts and warn records for retries and failures, with
// attributes op, provider, model, attempt, kind, status, delay.
package providers
