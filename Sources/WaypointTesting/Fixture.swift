import Waypoint
