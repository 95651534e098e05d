# The stress harness: random malloc, calloc, realloc, free, aligned
# allocations, blocks freed by other threads, malloc_trim and fork on 4
# threads (programs/fuzz.c), for ALLOCTAG_FUZZ_SECONDS (default 2; longer on
# request: ALLOCTAG_FUZZ_SECONDS=600 testsuite/run gcc runtime/fuzz).  Built
# plain, it must pass on glibc (the harness is right); built with
# alloctag-cc, it must pass too and the report must say, site by site,
# what the harness's model counted (every block freed: live 0); a plain
# build with liballoctag.so preloaded must pass, and a static build (-static)
# must pass with its model.
d=$WORK/fuzz
mkdir -p "$d"
seconds=${ALLOCTAG_FUZZ_SECONDS:-2}
seed=${ALLOCTAG_FUZZ_SEED:-$(( $(date +%s) % 100000 ))}
lib=$(dirname "$ATCC")/liballoctag.so

fuzz_build() {
	cd "$d" && "$TESTCC" -O2 -Wall -o plain "$TOP/testsuite/runtime/programs/fuzz.c" -lpthread &&
		"$ATCC" -O2 -Wall -o tagged "$TOP/testsuite/runtime/programs/fuzz.c" -lpthread &&
		"$ATCC" -O2 -Wall -static -o static "$TOP/testsuite/runtime/programs/fuzz.c" -lpthread
}

# The model's "SITE calls bytes" lines against the report's (0 live, the same
# totals); and stdout's buffer, once, on the printf that wrote the model.
fuzz_model_check() {
	local want got
	want=$(grep -v '^ok$' model | sort)
	[ "$(report_rows report | awk '$NF == "callee:printf" { print $2, $3 }')" = "1 1" ] ||
		{ echo "seed $seed: stdout's buffer is not the printf's, once:"; cat report; return 1; }
	got=$(report_rows report | awk '$6 ~ /fuzz\.c/ && $NF != "callee:printf" {
		if ($1 != 0 || $2 != 0) print "live:", $0
		n = split($6, w, " "); callee = $NF; sub(/^callee:/, "", callee)
		print callee, $3, $4 }' | sort)
	[ "$got" = "$want" ] || { echo "seed $seed: model and report differ"; diff <(echo "$want") <(echo "$got"); return 1; }
}

fuzz_check() {
	fuzz_build || return 1
	(cd "$d" && ./plain "$seconds" 4 "$seed" > plain.out) ||
		{ echo "seed $seed: the plain build fails:"; tail -3 "$d/plain.out"; return 1; }
	(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./tagged "$seconds" 4 "$seed" > model) ||
		{ echo "seed $seed: alloctag's build fails:"; tail -3 "$d/model"; return 1; }
	(cd "$d" && fuzz_model_check) || return 1
	(cd "$d" && ALLOCTAG_REPORT=off LD_PRELOAD="$lib" ./plain "$seconds" 4 "$seed" > preloaded.out) ||
		{ echo "seed $seed: the plain build with liballoctag.so preloaded fails:"; tail -3 "$d/preloaded.out"; return 1; }
	(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./static "$seconds" 4 "$seed" > model) ||
		{ echo "seed $seed: the static build fails:"; tail -3 "$d/model"; return 1; }
	(cd "$d" && fuzz_model_check) || { echo "(the static build)"; return 1; }
}
check fuzz/model-and-glibc fuzz_check
