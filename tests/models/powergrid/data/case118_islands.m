function chgtab = case118_islands
% Three branch outages of case118 for tests/models/powergrid (run_island_sweep.cmake): row 184
% (12-117) cuts off bus 117 and its 20 MW load; rows 1 (1-2) and 2 (1-3) do not.
define_constants;
chgtab = [
	1	0	CT_TBRCH	1	BR_STATUS	CT_REP	0;
	2	0	CT_TBRCH	184	BR_STATUS	CT_REP	0;
	3	0	CT_TBRCH	2	BR_STATUS	CT_REP	0;
];
