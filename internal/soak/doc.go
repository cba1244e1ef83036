// Package soak holds only a test: several OS processes index, search and
// report status through the façade (rlm.Open, Search, Status) on one
// persistent knowledge base while a writer edits the tree and churns its
// directories; after every round the shared knowledge base must answer as
// a fresh index of the same bytes does. It has no API.
//
// Its length: RLM_SOAK (a Go duration, e.g. RLM_SOAK=10m) or 2 minutes;
// 20 seconds with -short.
package soak
