#include "maker.h"

Maker::~Maker() {}
