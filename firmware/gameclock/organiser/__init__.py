"""The organiser's PC: the results store, docked clocks' ports, pairings, the receive/enroll/import/pairings
commands, standings and exports. Nothing on the clock imports this package."""
