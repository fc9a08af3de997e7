"""Fleet (interface: Vehicle, Vehicle consumption; facts §9.4): vehicles, their consumptions,
and the vehicle-fuel and unknown-vehicle reference lists."""
