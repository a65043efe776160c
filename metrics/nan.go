package metrics

import "math"

var nan = math.NaN()
