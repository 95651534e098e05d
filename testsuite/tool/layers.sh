# The alloctag command's files go one way (docs/DESIGN.md, tool/cli.h): the
# command line on the views, the views on the model, the model on the
# bottom; a file includes only headers of its layer or below, and none of
# a layer above.  A new file must be given its layer here.
. "$TOP/testsuite/tool/lib.sh"

layer() {
	case ${1%.[ch]} in
	util|json|sys|format|counters|counters_read|live_dir) echo 0 ;;	# the bottom (and the runtime's shared code)
	snapshot) echo 1 ;;						# the model: the sites, then their readers,
	report_parse|live|timeline) echo 2 ;;
	source) echo 3 ;;						# then what an operand names
	table|report_write) echo 4 ;;					# the views' parts
	site_table) echo 5 ;;
	views|top|ps|diff|snapshot_view|plot|pprof|record) echo 6 ;;	# the views
	cli|cli_table|manual|main) echo 7 ;;				# the command line
	*) echo "?" ;;
	esac
}

bad=
n=0
for f in "$TOP"/tool/*.[ch]; do
	name=$(basename "$f")
	mine=$(layer "$name")
	[ "$mine" = "?" ] && { bad="$bad
$name: no layer"; continue; }
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		theirs=$(layer "$h")
		n=$((n + 1))
		if [ "$theirs" = "?" ] || [ "$theirs" -gt "$mine" ]; then
			bad="$bad
$name (layer $mine) includes $h (layer $theirs)"
		fi
	done
done
[ -z "$bad" ] && [ "$n" -gt 50 ] && pass "tool/layers: $n includes, each of its layer or below" ||
	fail "tool/layers: each include of its layer or below ($n)" "$bad"
