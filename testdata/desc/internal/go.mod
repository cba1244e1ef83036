module example.com/shipping

go 1.22
