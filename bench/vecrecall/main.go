// Command vecrecall measures the recall@k of a search index's vector
// search against exact float32 search of the same documents: every
// document's retrieval.EmbeddingText is embedded again with the local
// embedder (float32, unit length) and each query's exact top k is found
// by brute force (ties by ascending id), then compared with the ids the
// index's retrieval.Vector search returns (binary16 stored vectors, the
// quantised shortlist re-ranked over them). It prints one JSON line.
//
//	go run ./bench/vecrecall -index <search-…-rlm-local-hash-v1-384-…sqlite> [-queries bench/queries.txt] [-random 200] [-k 10]
//
// The index is opened read-write by the embedded backend (an index of an
// older schema is upgraded in place): give it a copy.
package main

import (
	"bufio"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
)

func main() {
	index := flag.String("index", "", "search index file built with the local embedder")
	queries := flag.String("queries", "bench/queries.txt", "class<TAB>query lines; broad ones are skipped")
	random := flag.Int("random", 200, "queries made of six words of random documents' doc comments (seeded)")
	k := flag.Int("k", 10, "recall@k")
	flag.Parse()
	if err := run(context.Background(), *index, *queries, *random, *k); err != nil {
		fmt.Fprintln(os.Stderr, "vecrecall:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, index, queryFile string, random, k int) error {
	emb, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		return err
	}
	b, err := embedded.Open(ctx, index, embedded.WithEmbedder(emb))
	if err != nil {
		return err
	}
	defer b.Close()
	db, err := sql.Open("sqlite", "file:"+index+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var ids []string
	rows, err := db.QueryContext(ctx, "SELECT id FROM docs ORDER BY rid")
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	dims := emb.Dimensions()
	var docIDs []string
	var vecs []float32
	var docs []string // doc comments, for the random queries
	for start := 0; start < len(ids); start += retrieval.MaxLimit {
		got, err := b.Fetch(ctx, ids[start:min(start+retrieval.MaxLimit, len(ids))])
		if err != nil {
			return err
		}
		var texts []string
		var tids []string
		for _, d := range got {
			if t := retrieval.EmbeddingText(d); t != "" {
				texts, tids = append(texts, t), append(tids, d.ID)
			}
			if d.Doc != "" {
				docs = append(docs, d.Doc)
			}
		}
		vs, err := emb.Embed(ctx, texts)
		if err != nil {
			return err
		}
		for i, v := range vs {
			vecs = append(vecs, unit(v)...)
			docIDs = append(docIDs, tids[i])
		}
	}
	qs, err := readQueries(queryFile)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2))
	for len(docs) > 0 && random > 0 {
		w := strings.Fields(docs[r.IntN(len(docs))])
		if len(w) < 6 {
			continue
		}
		i := r.IntN(len(w) - 5)
		qs = append(qs, strings.Join(w[i:i+6], " "))
		random--
	}
	found, total, exactTies := 0, 0, 0
	for _, q := range qs {
		qv, err := emb.Embed(ctx, []string{q})
		if err != nil {
			return err
		}
		u := unit(qv[0])
		type scored struct {
			id  string
			sim float32
		}
		all := make([]scored, len(docIDs))
		for i := range docIDs {
			var s float32
			for j, x := range vecs[i*dims : (i+1)*dims] {
				s += x * u[j]
			}
			all[i] = scored{docIDs[i], s}
		}
		slices.SortFunc(all, func(a, b scored) int {
			if a.sim != b.sim {
				return cmp.Compare(b.sim, a.sim)
			}
			return strings.Compare(a.id, b.id)
		})
		if len(all) > k && all[k-1].sim == all[k].sim {
			exactTies++ // the exact top k itself is cut inside a tie
		}
		hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: q, Limit: k})
		if err != nil {
			return err
		}
		got := map[string]bool{}
		for _, h := range hits {
			got[h.Document.ID] = true
		}
		for _, s := range all[:min(k, len(all))] {
			total++
			if got[s.id] {
				found++
			}
		}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"index": index, "vectors": len(docIDs), "queries": len(qs), "k": k,
		"recall": float64(found) / float64(max(total, 1)), "found": found, "of": total,
		"queries_whose_exact_top_k_ends_in_a_tie": exactTies,
	})
}

// unit is v scaled to unit length (float64 norm), as the backend's search
// scales its query.
func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	inv := 1 / math.Sqrt(s)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// readQueries is the non-broad queries of a class<TAB>query file.
func readQueries(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		class, q, ok := strings.Cut(l, "\t")
		if strings.HasPrefix(l, "#") || !ok || class == "broad" || strings.TrimSpace(q) == "" {
			continue
		}
		qs = append(qs, q)
	}
	return qs, sc.Err()
}
