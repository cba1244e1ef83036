/*  registry.pl -- the host's intents, as facts harness authors write.

    A host's intents live in rule files of its own (loaded as a layer over
    these, e.g. `rlm route --intents DIR`); each file declares the
    predicates multifile and adds clauses:

      intent(Name, Description, Slots, Policy)
          Name         an atom, ^[a-z][a-z0-9_]*$ (it is also the name of
                       the tool the host runs it with)
          Description  a string: what the intent does (for people, for the
                       candidate search and, in a repair, for the model)
          Slots        [slot(Name, Type, Need, Description)|...] or
                       slot(Name, Type, Need, Description, Constraints):
                       Name an atom; Type string, integer, number,
                       boolean, duration or enum(["a", "b"]); Need
                       required or optional; Description a string;
                       Constraints a list of
                         min(N), max(N)    integer, number, duration
                                           (seconds): the value's range
                         max_length(N)     string: at most N bytes
                         pattern("RE2")    string: the value matches it
                         kind(K)           string: text (the default: no
                                           URL, path or code), name (a
                                           name: no pronoun or indefinite
                                           word either) or any
                       enforced by validation whoever decided (package
                       intent, docs/intent-router.md); what the host has
                       (a catalog of the slot's values) is values.pl's
          Policy       [capabilities([Cap|...]), side_effect(E)]: E is
                       none, read, write or external
      phrasing(Name, Pattern)
          a way people say it: a string of words with {slot} places,
          e.g. "set a timer for {duration}"

    Go reads these facts when the router loads (package intent) and checks
    them; the resolver (resolve.pl) gets the candidates as data.
*/

:- multifile(rule_id/2).
:- multifile(intent/4).
:- dynamic(intent/4).
:- multifile(phrasing/2).
:- dynamic(phrasing/2).

%! intents(-Intents) is det.
%  Every registered intent as intent(Name, Description, Slots, Policy).
intents(Is) :-
    findall(intent(N, D, S, P), intent(N, D, S, P), Is).

%! phrasings(-Phrasings) is det.
%  Every phrasing as phrasing(Name, Pattern).
phrasings(Ps) :-
    findall(phrasing(N, P), phrasing(N, P), Ps).
