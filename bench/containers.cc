// SPDX-License-Identifier: MIT
/*
 * bench/containers.cc: a C++ program that allocates through the standard
 * containers: a word count in std::map<std::string, int>, an index in
 * std::unordered_map<int, std::vector<int>>, lists and strings built and
 * dropped.  What alloctag's auto argument costs there: each call into the
 * containers that allocates gets a tag of its own, and new is tagged.
 *
 *   containers [ROUNDS]   (default 20)
 *
 * Output: a checksum, the same for every build.
 */
#include <cstdio>
#include <cstdlib>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct Item {
	std::string name;
	long weight;
};

static unsigned long round_of(int r)
{
	std::map<std::string, int> counts;
	std::unordered_map<int, std::vector<int>> index;
	std::list<Item> items;
	unsigned long sum = 0;

	for (int i = 0; i < 40000; i++) {
		std::string word = "word" + std::to_string((i * 7919 + r) % 5000);
		counts[word]++;
		index[i % 3001].push_back(i);
		if (i % 8 == 0)
			items.push_back(Item{word + "/item", i});
		if (i % 16 == 0) {
			auto node = std::make_unique<Item>(Item{word, i});
			sum += node->name.size();
		}
	}
	for (const auto &c : counts)
		sum += c.second * c.first.size();
	for (const auto &e : index)
		sum += e.second.size();
	for (const auto &it : items)
		sum += it.weight % 7;
	return sum;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 20;
	unsigned long sum = 0;

	for (int r = 0; r < rounds; r++)
		sum += round_of(r);
	std::printf("containers: %d rounds, checksum %lu\n", rounds, sum);
	return 0;
}
