import Waypoint

print("hi")
