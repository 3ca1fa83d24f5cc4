module runqcheck/stress/go

go 1.19
