% Tests for code.pl: the default vocabulary is data of the right shape.

test(every_concept_is_lowercase_text_with_terms) :-
    forall(concept(R, W, Ts),
           ( memberchk(R, [synonym, narrower, broader]),
             W = [_|_],
             Ts = [_|_],
             forall(member(T, [W|Ts]), ( T = [_|_], forall(member(C, T), \+ ( char_code(C, X), X >= 0'A, X =< 0'Z )) )) )).

test(auth_means_login_and_credentials) :-
    concept(synonym, "auth", Ts),
    memberchk("login", Ts),
    memberchk("credential", Ts).

test(retry_narrows_to_backoff) :-
    concept(narrower, "retry", Ts),
    memberchk("backoff", Ts).
