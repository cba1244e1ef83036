package testfixture

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
)

// ChromaURL returns the URL of the Chroma server for integration tests,
// $RLM_CHROMA_URL. Without it the test is skipped, except under CI (env CI
// non-empty), where a missing server fails it: CI must run these tests.
func ChromaURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv("RLM_CHROMA_URL")
	if u == "" {
		if os.Getenv("CI") != "" {
			tb.Fatal("RLM_CHROMA_URL is not set but CI is: start a server with scripts/chroma-server.sh start")
		}
		tb.Skip("RLM_CHROMA_URL not set; run `eval \"$(scripts/chroma-server.sh start)\"` to run Chroma integration tests")
	}
	return u
}

// UniquePrefix returns prefix followed by 8 random hex digits, for a
// Chroma collection prefix no other test run uses.
func UniquePrefix(prefix string) string {
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return prefix + hex.EncodeToString(rnd[:])
}
