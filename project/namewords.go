package project

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/internal/subwords"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// Compound names. A name part written without separators ("getaddrlist",
// "parsebytes", "Readdir") is one token of the search index, so a
// description's words ("Parse all addresses") cannot reach it. Its
// definition's document carries the words the part is written as
// (Document.NameWords), split into the tree's own vocabulary: the parts
// of its identifiers that are written in two or more parts
// ("get_addr_spec" gives get, addr and spec). Those words depend on other
// files, so the search index keeps, beside its documents, each file's
// words and the name parts it splits (nameWordStore), and an update
// writes again the documents of every file whose name parts contain a
// word that came into or left the vocabulary (Split depends on nothing
// else), so that an updated index holds what a fresh build holds.

// fileNameWords is what one file gives to and takes from the vocabulary.
type fileNameWords struct {
	// words are the file's vocabulary words, sorted, each once: the parts
	// (subwords.IsWord) of its identifiers written in two or more parts
	// (embedded.IdentifierParts) — its definitions' names, receivers and
	// containers, the words of their signatures, the names they call and
	// reference. Identifiers of one part are left out: "getaddrlist" is a
	// name to split, not a word to split it into.
	words []string
	// parts are the parts of its definitions' names that Split may split
	// (at least two words long), sorted, each once.
	parts []string
}

// nameWordsOf is what f gives to and takes from the vocabulary.
func nameWordsOf(f *sourcefacts.FileFacts) fileNameWords {
	var words, parts []string
	ident := func(id string) {
		if ps := embedded.IdentifierParts(id); len(ps) > 1 {
			for _, p := range ps {
				if subwords.IsWord(p) {
					words = append(words, p)
				}
			}
		}
	}
	for _, s := range f.Symbols {
		ident(s.Name)
		ident(s.Receiver)
		ident(s.Container)
		for _, w := range embedded.Words(s.Signature) {
			ident(w)
		}
		for _, p := range embedded.IdentifierParts(s.Name) {
			if len(p) >= 2*subwords.MinWordBytes && len(p) <= subwords.MaxCompoundBytes {
				parts = append(parts, p)
			}
		}
	}
	for _, r := range f.References {
		ident(r.Name)
	}
	slices.Sort(words)
	slices.Sort(parts)
	return fileNameWords{words: slices.Compact(words), parts: slices.Compact(parts)}
}

// treeVocabulary is the vocabulary of files, every file of one tree: the
// union of their words (nameWordsOf).
func treeVocabulary(files []*sourcefacts.FileFacts) *subwords.Vocabulary {
	v, _ := treeNameWords(files)
	return v
}

// treeNameWords is treeVocabulary(files) and what each file gives to it,
// by path.
func treeNameWords(files []*sourcefacts.FileFacts) (*subwords.Vocabulary, map[string]fileNameWords) {
	tw := newTreeWords(len(files))
	for _, f := range files {
		tw.add(f)
	}
	return tw.vocab, tw.byPath
}

// treeWords gathers treeNameWords a file at a time: the vocabulary and
// what each file gives to it, by path.
type treeWords struct {
	vocab  *subwords.Vocabulary
	byPath map[string]fileNameWords
}

// newTreeWords is an empty treeWords for about n files.
func newTreeWords(n int) *treeWords {
	return &treeWords{vocab: &subwords.Vocabulary{}, byPath: make(map[string]fileNameWords, n)}
}

// add adds what f gives (nameWordsOf).
func (t *treeWords) add(f *sourcefacts.FileFacts) {
	fw := nameWordsOf(f)
	for _, w := range fw.words {
		t.vocab.Add(w)
	}
	t.byPath[f.Provenance.Path] = fw
}

// nameWords are a definition's Document.NameWords: for each part of its
// name (embedded.IdentifierParts) that is a compound of vocab's words
// (subwords.Vocabulary.Split: "getaddrlist" → get, addrlist), those
// words and, the same way, the words of those that are compounds again
// (addrlist → addr, list), each once, in order. nil when no part splits
// or vocab is nil.
func nameWords(vocab *subwords.Vocabulary, name string) []string {
	if vocab == nil {
		return nil
	}
	var out []string
	var split func(string)
	split = func(p string) { // a word is shorter than p: this ends
		for _, w := range vocab.Split(p) {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
			split(w)
		}
	}
	for _, p := range embedded.IdentifierParts(name) {
		split(p)
	}
	return out
}

// nameWordStore is the vocabulary kept in a search index file, written in
// the transactions that write its documents:
//
//	name_word_files  path, words, parts: each file's fileNameWords
//	                 (space-separated)
//	name_words       word, files: how many files give each word
const nameWordSchema = `
CREATE TABLE IF NOT EXISTS name_word_files (path TEXT PRIMARY KEY, words TEXT NOT NULL, parts TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS name_words (word TEXT PRIMARY KEY, files INTEGER NOT NULL) WITHOUT ROWID;
`

type nameWordStore struct {
	ctx context.Context
	tx  *sql.Tx
	ss  *scopeStore // prepares the statements (scopeStore.stmt) in the same transaction
}

// openNameWordStore opens the name word tables in tx, whose scope tables
// ss holds open.
func openNameWordStore(ctx context.Context, tx *sql.Tx, ss *scopeStore) (*nameWordStore, error) {
	if _, err := tx.ExecContext(ctx, nameWordSchema); err != nil {
		return nil, fmt.Errorf("project: name word tables: %w", err)
	}
	return &nameWordStore{ctx: ctx, tx: tx, ss: ss}, nil
}

// scanOne runs q with args and scans its one row into dest;
// sql.ErrNoRows if there is none.
func (s *nameWordStore) scanOne(q string, dest any, args ...any) error {
	st, err := s.ss.stmt(q)
	if err != nil {
		return err
	}
	return st.QueryRowContext(s.ctx, args...).Scan(dest)
}

// reset replaces the tables' contents with files' (path → what it gives).
func (s *nameWordStore) reset(files map[string]fileNameWords) error {
	if _, err := s.tx.ExecContext(s.ctx, `DELETE FROM name_word_files; DELETE FROM name_words`); err != nil {
		return err
	}
	insFile, err := s.tx.PrepareContext(s.ctx, `INSERT INTO name_word_files (path, words, parts) VALUES (?, ?, ?)`)
	if err != nil {
		return err
	}
	defer insFile.Close()
	counts := map[string]int{}
	for _, path := range slices.Sorted(maps.Keys(files)) {
		fw := files[path]
		for _, w := range fw.words {
			counts[w]++
		}
		if _, err := insFile.ExecContext(s.ctx, path, strings.Join(fw.words, " "), strings.Join(fw.parts, " ")); err != nil {
			return err
		}
	}
	insWord, err := s.tx.PrepareContext(s.ctx, `INSERT INTO name_words (word, files) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	defer insWord.Close()
	for _, w := range slices.Sorted(maps.Keys(counts)) {
		if _, err := insWord.ExecContext(s.ctx, w, counts[w]); err != nil {
			return err
		}
	}
	return nil
}

// vocabulary reads the words of the tree.
func (s *nameWordStore) vocabulary() (*subwords.Vocabulary, error) {
	return s.words(`SELECT word FROM name_words WHERE files > 0`)
}

// words reads the words query (with args) selects into a vocabulary.
func (s *nameWordStore) words(query string, args ...any) (*subwords.Vocabulary, error) {
	rows, err := s.tx.QueryContext(s.ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	v := &subwords.Vocabulary{}
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			return nil, err
		}
		v.Add(w)
	}
	return v, rows.Err()
}

// maxVocabularyPieces bounds the pieces vocabularyFor looks up one by one
// in the name word tables; past it, reading the whole vocabulary costs
// less (GOROOT/src has about 15,000 words).
const maxVocabularyPieces = 1 << 14

// vocabularyFor reads the words of the tree that can split names: those
// among the pieces (subwords.Pieces) of their parts
// (embedded.IdentifierParts). nameWords of each of names is the same with
// it as with the whole vocabulary, which it reads instead (vocabulary)
// when the pieces are more than maxPieces.
func (s *nameWordStore) vocabularyFor(names []string, maxPieces int) (*subwords.Vocabulary, error) {
	pieces := map[string]struct{}{}
	for _, name := range names {
		for _, p := range embedded.IdentifierParts(name) {
			for _, w := range subwords.Pieces(p) {
				pieces[w] = struct{}{}
			}
			if len(pieces) > maxPieces {
				return s.vocabulary()
			}
		}
	}
	if len(pieces) == 0 {
		return &subwords.Vocabulary{}, nil
	}
	// Pieces are a-z only: a JSON array of them needs no escaping.
	var list strings.Builder
	list.WriteByte('[')
	for w := range pieces {
		if list.Len() > 1 {
			list.WriteByte(',')
		}
		list.WriteString(`"` + w + `"`)
	}
	list.WriteByte(']')
	return s.words(`SELECT word FROM name_words WHERE files > 0 AND word IN (SELECT value FROM json_each(?))`, list.String())
}

// update records what the file at path gives now (nil: it is gone) and
// returns the words that came into or left the vocabulary with it.
func (s *nameWordStore) update(path string, now *fileNameWords) ([]string, error) {
	var was string
	switch err := s.scanOne(`SELECT words FROM name_word_files WHERE path = ?`, &was, path); err {
	case nil, sql.ErrNoRows:
	default:
		return nil, err
	}
	var nowWords []string
	if now != nil {
		nowWords = now.words
	}
	wasWords := strings.Fields(was)
	var flipped []string
	for _, w := range wasWords {
		if !slices.Contains(nowWords, w) {
			var n int
			if err := s.scanOne(`UPDATE name_words SET files = files - 1 WHERE word = ? RETURNING files`, &n, w); err != nil {
				return nil, err
			}
			if n == 0 {
				flipped = append(flipped, w)
			}
		}
	}
	for _, w := range nowWords {
		if !slices.Contains(wasWords, w) {
			var n int
			if err := s.scanOne(`INSERT INTO name_words (word, files) VALUES (?, 1)
				ON CONFLICT (word) DO UPDATE SET files = files + 1 RETURNING files`, &n, w); err != nil {
				return nil, err
			}
			if n == 1 {
				flipped = append(flipped, w)
			}
		}
	}
	var err error
	if now == nil {
		_, err = s.tx.ExecContext(s.ctx, `DELETE FROM name_word_files WHERE path = ?`, path)
	} else {
		_, err = s.tx.ExecContext(s.ctx, `INSERT OR REPLACE INTO name_word_files (path, words, parts) VALUES (?, ?, ?)`,
			path, strings.Join(now.words, " "), strings.Join(now.parts, " "))
	}
	return flipped, err
}

// splitting returns the paths of the files one of whose name parts
// contains one of words: the files whose documents' NameWords those words
// coming or going can change.
func (s *nameWordStore) splitting(words []string) ([]string, error) {
	if len(words) == 0 {
		return nil, nil
	}
	rows, err := s.tx.QueryContext(s.ctx, `SELECT path, parts FROM name_word_files WHERE parts != ''`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var path, parts string
		if err := rows.Scan(&path, &parts); err != nil {
			return nil, err
		}
		for _, w := range words {
			if strings.Contains(parts, w) {
				out = append(out, path)
				break
			}
		}
	}
	return out, rows.Err()
}
