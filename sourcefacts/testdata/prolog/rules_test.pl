test(area) :- shapes:area(square(2), 4).
