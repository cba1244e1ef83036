% Tests for registry.pl: without a host's intent files the registry is
% empty (the defaults register no intent).

test(no_intents_without_a_host) :-
    intents(Is),
    Is == [].

test(no_phrasings_without_a_host) :-
    phrasings(Ps),
    Ps == [].
