window.YTD.tweets.part0 = [
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785600000000000000"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "79"
      ],
      "favorite_count": "0",
      "id_str": "1785600000000000000",
      "truncated": false,
      "retweet_count": "0",
      "id": "1785600000000000000",
      "created_at": "Wed May 01 08:00:00 +0000 2024",
      "favorited": false,
      "full_text": "Sunrise over the harbour this morning. Best start to a day I've had in ages! ☀️",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785598765432109877"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "79"
      ],
      "favorite_count": "3",
      "id_str": "1785598765432109877",
      "truncated": false,
      "retweet_count": "1",
      "id": "1785598765432109877",
      "created_at": "Wed May 01 00:47:00 +0000 2024",
      "favorited": false,
      "full_text": "Coffee machine at the office broke again. Third time this month. Not impressed.",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785597530864219754"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "61"
      ],
      "favorite_count": "6",
      "id_str": "1785597530864219754",
      "truncated": false,
      "retweet_count": "2",
      "id": "1785597530864219754",
      "created_at": "Tue Apr 30 17:34:00 +0000 2024",
      "favorited": false,
      "full_text": "Reminder: the community garden meeting moved to Thursday 6pm.",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785596296296329631"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "88"
      ],
      "favorite_count": "9",
      "id_str": "1785596296296329631",
      "truncated": false,
      "retweet_count": "3",
      "id": "1785596296296329631",
      "created_at": "Tue Apr 30 10:21:00 +0000 2024",
      "favorited": false,
      "full_text": "Finally finished the marathon training plan. So proud of everyone who ran with me 🏃‍♀️❤️",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785595061728439508"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "71"
      ],
      "favorite_count": "12",
      "id_str": "1785595061728439508",
      "truncated": false,
      "retweet_count": "4",
      "id": "1785595061728439508",
      "created_at": "Tue Apr 30 03:08:00 +0000 2024",
      "favorited": false,
      "full_text": "Missed the last train home and my phone died. What a miserable evening.",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785593827160549385"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "47"
      ],
      "favorite_count": "15",
      "id_str": "1785593827160549385",
      "truncated": false,
      "retweet_count": "5",
      "id": "1785593827160549385",
      "created_at": "Mon Apr 29 19:55:00 +0000 2024",
      "favorited": false,
      "full_text": "¡Qué día tan bonito en la playa con mis amigos!",
      "lang": "es"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785592592592659262"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "65"
      ],
      "favorite_count": "18",
      "id_str": "1785592592592659262",
      "truncated": false,
      "retweet_count": "6",
      "id": "1785592592592659262",
      "created_at": "Mon Apr 29 12:42:00 +0000 2024",
      "favorited": false,
      "full_text": "New post on the blog: ten tips for growing tomatoes on a balcony.",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785591358024769139"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "80"
      ],
      "favorite_count": "21",
      "id_str": "1785591358024769139",
      "truncated": false,
      "retweet_count": "7",
      "id": "1785591358024769139",
      "created_at": "Mon Apr 29 05:29:00 +0000 2024",
      "favorited": false,
      "full_text": "I love how kind strangers are when you're lost in a new city. Thank you, Lisbon!",
      "lang": "en"
    }
  }
]
