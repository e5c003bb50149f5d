"""satnono: black-and-white nonograms solved, enumerated and counted exactly."""
