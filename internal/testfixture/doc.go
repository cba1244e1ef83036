// Package testfixture holds helpers that the tests of several packages
// share and that are nobody's API: a deterministic bag-of-words test
// embedder (WordEmbedder), random vectors and documents that every filter
// field splits (RandomVectors, VectorDocs), a reference filter (Passes),
// cosine similarity in float64 (Cosine), the rule for tests that need a real
// Chroma server (ChromaURL), a recording HTTP fake (HTTPFake), and Must
// for calls whose error a check must not drop. Only
// _test.go files import it.
package testfixture
