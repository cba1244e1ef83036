/*  code.pl -- a small default vocabulary of code concepts.

    concept(Relation, Word, Terms): Word (a lowercased content word of a
    query, a string) relates to Terms (strings) by Relation:

      synonym   Terms mean what Word means in code ("auth" and "login")
      narrower  Terms are more specific ("retry" -> "backoff")
      broader   Terms are more general ("backoff" -> "retry")

    The retrieval rules (retrieval/expand.pl) expand a descriptive query's
    BM25 and hybrid text with the synonyms and narrower terms of its words,
    and say so in the plan. Harness authors add vocabularies of their own
    in files of their own (e.g. DIR/concepts/billing.pl), declaring
    concept/3 multifile; expand_relation/1 (retrieval/expand.pl) says which
    relations expand.
*/

:- multifile(concept/3).

concept(synonym, "auth", ["authenticate", "authentication", "authorization", "login", "credential"]).
concept(synonym, "authentication", ["auth", "login", "credential"]).
concept(synonym, "login", ["auth", "authenticate", "signin"]).
concept(narrower, "retry", ["backoff", "attempt"]).
concept(broader, "backoff", ["retry"]).
concept(narrower, "cache", ["memoize", "evict", "ttl"]).
concept(synonym, "delete", ["remove", "drop"]).
concept(synonym, "remove", ["delete", "drop"]).
concept(narrower, "concurrency", ["mutex", "lock", "goroutine", "thread"]).
concept(synonym, "timeout", ["deadline"]).
concept(narrower, "database", ["sql", "query", "transaction"]).
concept(synonym, "db", ["database", "sql"]).
