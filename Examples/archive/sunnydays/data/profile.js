window.YTD.profile.part0 = [
  {
    "profile": {
      "description": {
        "bio": "A made-up account for the swift-sentiment demo. Gardens, running, harbours.",
        "website": "",
        "location": "Nowhere in particular"
      },
      "avatarMediaUrl": "https://example.com/avatars/sunnydays.png"
    }
  }
]
