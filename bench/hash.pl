# bench/hash.pl: a hash-heavy Perl workload for bench/run (make bench).
# Reads "user word amount" lines (bench/gen-input lines N) from the files
# named, or stdin; keeps per-user counts, sums and last entries, and counts
# of each user-word pair (a hash that grows to a key per line); then prints
# the ten largest sums and the sizes of the hashes.  Its output depends only
# on its input (sorted, ties broken by name).
use strict;
use warnings;

my (%count, %sum, %last, %pairs);
while (my $line = <>) {
	chomp $line;
	my ($user, $word, $amount) = split / /, $line;
	$count{$user}++;
	$sum{$user} += $amount;
	$last{$user} = "$word:$amount";
	$pairs{"$user $word"}++;
}
my @top = map { $_->[0] } (sort { $b->[1] <=> $a->[1] || $a->[0] cmp $b->[0] }
			   map { [$_, $sum{$_}] } keys %sum)[0 .. 9];
printf "%d users, %d user-word pairs\n", scalar(keys %count), scalar(keys %pairs);
print "$_ $count{$_} $sum{$_} $last{$_}\n" for @top;
